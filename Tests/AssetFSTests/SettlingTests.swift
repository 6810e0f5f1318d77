import Dispatch
import Foundation
import Glibc
import Posix
import RenditionCache
import Renditions
import Synchronization
import Testing
@testable import AssetFS

/// A file still being written is not declared broken: its failed render is judged once the file
/// has gone `settleTime` without a change.
@Suite struct SettlingTests {
    /// Written in two parts with a pause between them (as a copy over a slow link): the read made
    /// in the pause waits, then fails as for a changed photo; nothing is stored, counted or listed
    /// as broken, and once the folder is read again the whole photo renders.
    @Test func aPhotoPausedHalfWrittenIsNotBroken() throws {
        let fixture = Fixture(["A/good.jpg": "cameras/Nikon_D5000.jpg"])
        let whole = try Array(Data(contentsOf: URL(fileURLWithPath: Fixture.testdata.appending(FilePath("cameras/Nikon_D5000.jpg")).description)))
        let path = "\(fixture.source)/A/half.jpg"
        #expect(FileManager.default.createFile(atPath: path, contents: Data(whole.prefix(64))))  // no image data yet
        let fs = try fixture.fileSystem()
        let first = Mutex<Result<[UInt8], Errno>?>(nil)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            let result = fs.readAll("groups/A/half/thumbnail.jpg")
            first.withLock { $0 = result }
            done.signal()
        }
        usleep(1_000_000)
        #expect(first.withLock { $0 == nil }, "the read waits while the file is changing")
        let handle = try #require(FileHandle(forWritingAtPath: path))
        handle.seekToEndOfFile()
        handle.write(Data(whole.dropFirst(64)))
        try handle.close()
        done.wait()
        let placeholder = try #require(Renderer.placeholder)
        let answer = first.withLock { $0 }
        #expect(answer != .success(placeholder) && answer != nil, "no placeholder for a photo half there: \(String(describing: answer))")
        fs.pipeline.waitForWrites()
        let store = try RenditionStore(path: fixture.cachePath, capacity: 1 << 30)
        #expect(try store.failures().isEmpty, "no failure stored")
        #expect(fs.statistics.renderFailures.load(ordering: .relaxed) == 0)
        #expect(fs.catalog.read { fs.brokenAssets(in: $0) }.isEmpty)
        _ = fs.rescan()
        let thumbnail = try fs.readAll("groups/A/half/thumbnail.jpg").get()
        #expect(thumbnail.starts(with: [0xFF, 0xD8]) && thumbnail != placeholder, "the whole photo renders")
    }

    /// A file left half written past the settle time is broken, as any other.
    @Test func aPhotoLeftHalfWrittenIsBrokenOnceSettled() throws {
        let fixture = Fixture(["A/good.jpg": "cameras/Nikon_D5000.jpg"])
        let whole = try Array(Data(contentsOf: URL(fileURLWithPath: Fixture.testdata.appending(FilePath("cameras/Nikon_D5000.jpg")).description)))
        #expect(FileManager.default.createFile(atPath: "\(fixture.source)/A/half.jpg", contents: Data(whole.prefix(64))))
        let fs = try fixture.fileSystem()
        #expect(try fs.readAll("groups/A/half/thumbnail.jpg").get() == Renderer.placeholder)
        let status = try FileStatus(path: FilePath("\(fixture.source)/A/half.jpg"))
        #expect(RenditionPipeline.timeToSettle(status) == nil, "judged once settled, not at once")
        #expect(fs.catalog.read { fs.brokenAssets(in: $0) }.map(\.mountPath) == [FilePath("groups/A/half")])
        #expect(fs.statistics.renderFailures.load(ordering: .relaxed) == 1)
    }
}
