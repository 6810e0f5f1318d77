import Dispatch
import Glibc
import Posix
@testable import RenditionCache
import Renditions
import Synchronization
import TestFixtures
import Testing
@testable import AssetFS

/// A source tree made of real test photos, with its own cache file.
final class Fixture {
    let folder: FilePath
    let source: FilePath
    static let testdata = FilePath(Fixtures.root)

    init(_ files: [String: String]) {
        var template = Array("/tmp/assetfs-fs-XXXXXX".utf8CString)
        folder = FilePath(String(cString: mkdtemp(&template)!))
        source = folder.appending(Array("Pictures".utf8))
        for (target, testdataFile) in files { copy(testdataFile, to: target) }
    }
    deinit { _ = system("rm -rf '\(folder)'") }

    func copy(_ testdataFile: String, to target: String) {
        let destination = source.appending(FilePath(target))
        _ = system("mkdir -p \"$(dirname '\(destination)')\" && cp '\(Self.testdata.appending(FilePath(testdataFile)))' '\(destination)'")
    }

    func fileSystem(store: RenditionStore? = nil, options: MountOptions = MountOptions()) throws -> AssetFileSystem {
        try AssetFileSystem(source: source, options: options, store: store ?? (try RenditionStore(path: folder.appending(Array("cache.sqlite".utf8)), capacity: 1 << 30)),
                            renderer: Renderer(limits: RenderLimits(waitForMemory: true)), renderThreads: 2)
    }
}

/// Blocking forms of the callback API.
extension AssetFileSystem {
    func lookupPath(_ path: String) -> Result<Attributes, Errno> {
        var inode: UInt64 = 1
        var result: Result<Attributes, Errno> = .failure(.notFound)
        for name in path.split(separator: "/") {
            result = wait { self.lookup(parent: inode, name: Array(name.utf8), completion: $0) }
            guard case .success(let attributes) = result else { return result }
            inode = attributes.inode
        }
        return result
    }

    func readAll(_ path: String) -> Result<[UInt8], Errno> {
        lookupPath(path).flatMap { attributes in
            wait { self.open(attributes.inode, completion: $0) }.flatMap { file in
                defer { release(file) }
                return wait { read(file, size: Int(attributes.size) + 10, offset: 0, completion: $0) }
            }
        }
    }
}

func wait<T: Sendable>(_ call: (@escaping @Sendable (Result<T, Errno>) -> Void) -> Void) -> Result<T, Errno> {
    let box = Mutex<Result<T, Errno>?>(nil)
    let done = DispatchSemaphore(value: 0)
    call { result in box.withLock { $0 = result }; done.signal() }
    done.wait()
    return box.withLock { $0! }
}

extension AssetFileSystem {
    var renders: Int { statistics.renders.load(ordering: .relaxed) }
}

@Suite struct AssetFileSystemTests {
    @Test func listingAndStatOfFoldersAndOriginalsRenderNothing() throws {
        let fixture = Fixture(["A/one.jpg": "orientation/Landscape_6.jpg", "A/two.jpg": "cameras/Nikon_D5000.jpg"])
        let fs = try fixture.fileSystem()
        let groups = try fs.lookupPath("groups").get()
        let albums = try fs.list(groups.inode).get()
        #expect(albums.map(\.name) == [Array("A".utf8)])
        let assets = try fs.list(albums[0].inode).get().map { String(decoding: $0.name, as: UTF8.self) }
        #expect(assets == ["thumbnail.jpg", "one", "two"])
        let original = try fs.lookupPath("groups/A/one/original.jpg").get()
        #expect(original.size == 352727)
        #expect(try fs.lookupPath("groups/A/one").get().isDirectory)
        #expect(fs.renders == 0)
    }

    @Test func aRenditionsSizeIsExactAndKnownWithoutRenderingAgain() throws {
        let fixture = Fixture(["A/one.jpg": "orientation/Landscape_6.jpg"])
        let fs = try fixture.fileSystem()
        let attributes = try fs.lookupPath("groups/A/one/thumbnail.jpg").get()
        #expect(fs.renders == 1)
        let bytes = try fs.readAll("groups/A/one/thumbnail.jpg").get()
        #expect(Int64(bytes.count) == attributes.size)
        #expect(bytes.starts(with: [0xFF, 0xD8]))
        // The poster is the same rendition: no second render.
        #expect(try fs.lookupPath("groups/A/thumbnail.jpg").get().size == attributes.size)
        #expect(fs.renders == 1)
        // A second filesystem over the same cache knows the size without rendering.
        let again = try fixture.fileSystem()
        #expect(try again.lookupPath("groups/A/one/thumbnail.jpg").get().size == attributes.size)
        #expect(try again.readAll("groups/A/one/thumbnail.jpg").get() == bytes)
        #expect(again.renders == 0)
    }

    @Test func concurrentMissesOfOneRenditionRenderOnce() throws {
        let fixture = Fixture(["A/one.jpg": "cameras/canon_hdr_NO.jpg"])
        let fs = try fixture.fileSystem()
        let results = Mutex<[[UInt8]]>([])
        DispatchQueue.concurrentPerform(iterations: 32) { i in
            let bytes = try? fs.readAll(i % 2 == 0 ? "groups/A/one/fullscreen.jpg" : "groups/A/one/fullscreen.jpg").get()
            results.withLock { $0.append(bytes ?? []) }
        }
        let all = results.withLock { $0 }
        #expect(all.count == 32 && Set(all).count == 1 && !all[0].isEmpty)
        #expect(fs.renders == 1)
    }

    @Test func aBrokenPhotoFailsItsRenditionsOnceButKeepsItsOriginal() throws {
        let fixture = Fixture(["A/bad.jpg": "malformed/missing-sos.jpg", "A/good.jpg": "malformed/grayscale.jpg"])
        let fs = try fixture.fileSystem()
        #expect(fs.lookupPath("groups/A/bad/thumbnail.jpg") == .failure(.io))
        #expect(fs.readAll("groups/A/bad/fullscreen.jpg") == .failure(.io))
        #expect(fs.lookupPath("groups/A/bad/thumbnail.jpg") == .failure(.io))
        #expect(fs.renders == 2)  // thumbnail and fullscreen, each tried once
        #expect(fs.statistics.renderFailures.load(ordering: .relaxed) == 2)
        #expect(try fs.readAll("groups/A/bad/original.jpg").get().count == 104)
        #expect(try fs.readAll("groups/A/good/thumbnail.jpg").get().count > 0)
    }

    @Test func readsReturnTheRequestedRange() throws {
        let fixture = Fixture(["A/one.jpg": "cameras/Nikon_D5000.jpg"])
        let fs = try fixture.fileSystem()
        let original = try fs.lookupPath("groups/A/one/original.jpg").get()
        let file = try wait { fs.open(original.inode, completion: $0) }.get()
        defer { fs.release(file) }
        let source = try FileDescriptor.openReadOnly(fixture.source.appending(FilePath("A/one.jpg")))
        defer { source.close() }
        #expect(try wait { fs.read(file, size: 4096, offset: 1000, completion: $0) }.get() == source.read(upTo: 4096, at: 1000))
        #expect(try wait { fs.read(file, size: 4096, offset: original.size, completion: $0) }.get() == [])
    }

    @Test func aRenditionReadsInRangesAndSurvivesEviction() throws {
        let fixture = Fixture(["A/one.jpg": "cameras/canon_hdr_NO.jpg", "A/two.jpg": "cameras/Kodak_DX4330.jpg"])
        // A cap smaller than one fullscreen: every store evicts what came before.
        let store = try RenditionStore(path: fixture.folder.appending(Array("small.sqlite".utf8)), capacity: 1000)
        let fs = try fixture.fileSystem(store: store)
        let whole = try fs.readAll("groups/A/one/fullscreen.jpg").get()
        let attributes = try fs.lookupPath("groups/A/one/fullscreen.jpg").get()
        let file = try wait { fs.open(attributes.inode, completion: $0) }.get()
        defer { fs.release(file) }
        _ = try fs.readAll("groups/A/two/fullscreen.jpg").get()  // evicts one's bytes
        let middle = try wait { fs.read(file, size: 5000, offset: 10_000, completion: $0) }.get()
        #expect(middle == Array(whole[10_000..<15_000]))
        #expect(try store.contains(RenditionRequest(root: fs.root, photo: fs.currentCatalog.photo(album: 0, asset: 0), spec: fs.options.fullscreen).key) == false)
        #expect(fs.renders > 2)  // nothing stays cached under this cap: reads rendered the same bytes again
    }

    @Test func statisticsAndSourceAttributes() throws {
        let fixture = Fixture(["A/one.jpg": "cameras/Nikon_D5000.jpg", "A/notes.txt": "README.md"])
        let fs = try fixture.fileSystem()
        let asset = try fs.lookupPath("groups/A/one").get()
        #expect(try fs.extendedAttribute(asset.inode, name: AssetFileSystem.sourceAttribute).get() == Array("A/one.jpg".utf8))
        let json = String(decoding: try fs.extendedAttribute(1, name: AssetFileSystem.statsAttribute).get(), as: UTF8.self)
        #expect(json.contains("\"albums\":1") && json.contains("\"assets\":1") && json.contains("\"skipped\":1") && json.contains("\"renders\":0"))
        #expect(fs.extendedAttribute(asset.inode, name: Array("user.other".utf8)) == .failure(.noAttribute))
    }

    @Test func aRescanReportsWhatChanged() throws {
        let fixture = Fixture(["A/one.jpg": "cameras/Nikon_D5000.jpg", "A/two.jpg": "malformed/grayscale.jpg"])
        let fs = try fixture.fileSystem()
        let before = try fs.lookupPath("groups/A/one/thumbnail.jpg").get()
        #expect(fs.rescan().isEmpty)
        fixture.copy("orientation/Portrait_1.jpg", to: "A/one.jpg")
        _ = unlink("\(fixture.source)/A/two.jpg")
        let changes = fs.rescan()
        #expect(changes.contains(.inode(before.inode)))
        #expect(changes.contains(.entry(parent: try fs.lookupPath("groups/A").get().inode, name: Array("two".utf8))))
        let after = try fs.lookupPath("groups/A/one/thumbnail.jpg").get()
        #expect(after.inode == before.inode && after.size != before.size)
        #expect(fs.lookupPath("groups/A/two") == .failure(.notFound))
    }

    @Test func withoutAStoreRenditionsAreServedFromMemory() throws {
        let fixture = Fixture(["A/one.jpg": "cameras/Nikon_D5000.jpg"])
        let fs = try AssetFileSystem(source: fixture.source, options: MountOptions(), store: nil, renderer: Renderer(), renderThreads: 1)
        let attributes = try fs.lookupPath("groups/A/one/thumbnail.jpg").get()
        #expect(try fs.readAll("groups/A/one/thumbnail.jpg").get().count == Int(attributes.size))
        #expect(fs.renders == 1)
    }

    /// The pipeline's LRU marks: `markUsed` collects, `flushUses` (and a batch of 512) writes them
    /// to the store. The store counts whole seconds and skips entries marked in the last minute, so
    /// the test sets `last_used` far in the past through its own connection instead of sleeping.
    @Test func marksOfUseAreKeptUntilFlushedThenWritten() throws {
        let fixture = Fixture(["A/one.jpg": "malformed/grayscale.jpg"])
        let store = try RenditionStore(path: fixture.folder.appending(Array("uses.sqlite".utf8)), capacity: 1 << 30)
        let fs = try fixture.fileSystem(store: store)
        _ = try fs.readAll("groups/A/one/thumbnail.jpg").get()
        let request = RenditionRequest(root: fs.root, photo: fs.currentCatalog.photo(album: 0, asset: 0), spec: fs.options.thumbnail)
        #expect(try store.contains(request.key))
        let clock = try PipelineUseClock(store)
        let longAgo: Int64 = 1_000_000

        fs.pipeline.flushUses()  // what the read marked; also restarts the 10-second batch window
        try clock.setAll(to: longAgo)
        fs.pipeline.markUsed(request)
        #expect(try clock.lastUsed(request.key) == longAgo, "one mark is batched, not written at once")
        let before = Int64(time(nil))
        fs.pipeline.flushUses()
        #expect(try clock.lastUsed(request.key).map { $0 >= before } == true, "flushUses writes the pending mark")

        // The flush emptied the batch: flushing again writes nothing.
        try clock.setAll(to: longAgo)
        fs.pipeline.flushUses()
        #expect(try clock.lastUsed(request.key) == longAgo)
    }

    @Test func aFullBatchOfMarksIsWrittenWithoutAFlush() throws {
        let fixture = Fixture(["A/one.jpg": "malformed/grayscale.jpg"])
        let store = try RenditionStore(path: fixture.folder.appending(Array("uses.sqlite".utf8)), capacity: 1 << 30)
        let fs = try fixture.fileSystem(store: store)
        let photo = fs.currentCatalog.photo(album: 0, asset: 0)
        // 512 distinct renditions (one per size) stored directly: the batch limit.
        let requests = (1...512).map { RenditionRequest(root: fs.root, photo: photo, spec: RenditionSpec(longestSide: $0)) }
        for request in requests { try store.store([1, 2, 3], for: request.key) }
        let clock = try PipelineUseClock(store)
        let longAgo: Int64 = 1_000_000
        fs.pipeline.flushUses()
        try clock.setAll(to: longAgo)
        let before = Int64(time(nil))
        for request in requests.dropLast() { fs.pipeline.markUsed(request) }
        #expect(try clock.count(usedSince: before) == 0, "511 marks stay pending")
        fs.pipeline.markUsed(requests.last!)
        #expect(try clock.count(usedSince: before) == 512, "the 512th mark writes the whole batch")
    }
}

/// A second connection to the store's file: the LRU clock (`entries.last_used`, whole seconds).
struct PipelineUseClock {
    let database: Database
    init(_ store: RenditionStore) throws { database = try Database(path: store.path) }

    func setAll(to seconds: Int64) throws {
        try database.query("UPDATE entries SET last_used = ?", [.integer(seconds)])
    }

    func set(_ key: CacheKey, to seconds: Int64) throws {
        try database.query("UPDATE entries SET last_used = ? WHERE key = ?", [.integer(seconds), .blob(key.bytes)])
    }

    func lastUsed(_ key: CacheKey) throws -> Int64? {
        var result: Int64?
        try database.query("SELECT last_used FROM entries WHERE key = ?", [.blob(key.bytes)]) { result = $0.integer(0) }
        return result
    }

    func count(usedSince seconds: Int64) throws -> Int {
        var result = 0
        try database.query("SELECT count(*) FROM entries WHERE last_used >= ?", [.integer(seconds)]) { result = Int($0.integer(0)) }
        return result
    }
}
