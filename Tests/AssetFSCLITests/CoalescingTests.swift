import Foundation
import Glibc
import Synchronization
import Testing

extension Mounted {
    /// Many readers of one uncached rendition cause one render.
    @Suite struct CoalescingTests {
        static let library = Library(sourceName: "Photos", albums: [
            Library.Album(name: Array("A".utf8), assets: [
                Library.Asset(name: Array("big".utf8), source: Array("A/big.jpg".utf8), sample: "cameras/Kodak_DX4330.jpg"),
                Library.Asset(name: Array("small".utf8), source: Array("A/small.jpg".utf8), sample: "cameras/Casio_EX-S1.jpg"),
            ]),
        ])

        @Test func thirtyTwoReadersOfOneUncachedThumbnailCauseOneRender() throws {
            try withScratch(Self.library) { scratch in
                // A 1024-px thumbnail of a 2160x1440 photo takes a few tenths of a second to render
                // (a 256-px one only ~30 ms, thanks to DCT scaling): long enough for every reader
                // to arrive while it is in flight.
                let mount = try scratch.mount(options: ["thumbnail_size=1024"])
                // The kernel lets one lookup of a name through at a time, so half the readers go
                // through the album poster and half through the asset's own thumbnail: two names,
                // one rendition, both misses reaching the daemon together. The folders on the way
                // are looked up first (that renders nothing), so both lookups start at once.
                let poster = mount.groups / "A" / "thumbnail.jpg"
                let own = mount.groups / "A" / "big" / "thumbnail.jpg"
                #expect(statErrno(mount.groups / "A" / "big") == 0)
                #expect(try mount.stats().renders == 0)
                let paths = (0..<32).map { $0 % 2 == 0 ? poster : own }
                let results = Mutex<[Int: Result<[UInt8], POSIXError>]>([:])
                let gate = Gate()
                let done = DispatchGroup()
                for (index, path) in paths.enumerated() {
                    done.enter()
                    Thread {
                        gate.wait()
                        let bytes = RawFiles.read(path)
                        results.withLock { $0[index] = bytes }
                        done.leave()
                    }.start()
                }
                gate.open()
                #expect(done.wait(timeout: .now() + 120) == .success, "hang guard: readers still blocked after 120 s")
                let all = results.withLock { $0 }
                let contents = Set(all.values.compactMap { try? $0.get() })
                #expect(all.count == 32 && all.values.allSatisfy { (try? $0.get()) != nil },
                        "failed reads: \(all.values.compactMap { if case .failure(let e) = $0 { e } else { nil } })")
                #expect(contents.count == 1, "readers got \(contents.count) different contents")
                #expect(contents.first.map { $0.starts(with: [0xFF, 0xD8]) && $0.count > 100 } == true)
                let stats = try mount.stats()
                #expect(stats.renders == 1, "\(stats)")
                #expect(stats.renderFailures == 0, "\(stats)")
                #expect(stats.cacheMisses == 1, "\(stats)")
                // What later readers get is the same.
                let cat = Command.run("cat", [String(decoding: own, as: UTF8.self)])
                #expect(contents.first == cat.stdout)
            }
        }
    }
}

/// Holds threads until `open()`, to start them all at once.
final class Gate: @unchecked Sendable {
    private let condition = NSCondition()
    private var isOpen = false

    func wait() {
        condition.lock()
        while !isOpen { condition.wait() }
        condition.unlock()
    }

    func open() {
        condition.lock()
        isOpen = true
        condition.broadcast()
        condition.unlock()
    }
}
