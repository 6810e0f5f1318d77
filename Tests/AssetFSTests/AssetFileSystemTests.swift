import MountModel
import Dispatch
import Glibc
import Posix
@testable import RenditionCache
import Renditions
import Synchronization
import TestFixtures
import Testing
@testable import AssetFS
import Catalog
import PhotoSource

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

    var cachePath: FilePath { folder.appending(Array("cache.sqlite".utf8)) }

    func fileSystem(store: RenditionStore? = nil, options: MountOptions = MountOptions(),
                    renderer: any RenditionMaking = Renderer(limits: RenderLimits(waitForMemory: true))) throws -> AssetFileSystem {
        let store = try store ?? RenditionStore(path: cachePath, capacity: 1 << 30)
        return try scanned(AssetFileSystem(source: source.resolved(), options: options, cache: CacheConnection { store },
                                           catalog: catalogOpener, renderer: renderer, renderThreads: 2))
    }

    var catalogOpener: @Sendable () -> CatalogStore {
        let path = folder.appending(Array("catalog.sqlite".utf8))
        let source = (try? source.resolved()) ?? source
        return { try! CatalogStore(path: path, source: source, reservedAssetNames: MountLayout.reservedAssetNames) }
    }

    func scanned(_ fs: AssetFileSystem) -> AssetFileSystem {
        fs.synchronize(.everything)
        return fs
    }
}

/// Blocking forms of the callback API.
extension AssetFileSystem {
    func lookupPath(_ path: String) -> Result<Attributes, Errno> {
        var inode: UInt64 = 1
        var result: Result<Attributes, Errno> = .failure(.notFound)
        for name in path.split(separator: "/") {
            result = wait { self.lookup(parent: inode, name: Array(name.utf8), as: .ofThisProcess, completion: $0) }
            guard case .success(let attributes) = result else { return result }
            inode = attributes.inode
        }
        return result
    }

    /// Opens `inode` and reads up to `size` bytes from its start, as `cat` does (the file closes
    /// when the last holder lets it go).
    func readOnce(_ inode: UInt64, size: Int, as caller: Credentials = .ofThisProcess,
                  completion: @escaping @Sendable (Result<[UInt8], Errno>) -> Void) {
        open(inode, as: caller) { opened in
            switch opened {
            case .failure(let error): completion(.failure(error))
            case .success(let file):
                self.read(file, size: size, offset: 0, completion: completion)
            }
        }
    }

    func readAll(_ path: String) -> Result<[UInt8], Errno> {
        lookupPath(path).flatMap { attributes in
            wait { self.open(attributes.inode, as: .ofThisProcess, completion: $0) }.flatMap { file in
                wait { read(file, size: Int(attributes.size) + 10, offset: 0, completion: $0) }
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
    var firstPhoto: Photo { catalog.read { $0.allRenditionSources() }[0].photo }

    func list(_ inode: UInt64) -> Result<[ListingEntry], Errno> { list(inode, after: 0, limit: 100_000, as: .ofThisProcess) }

    /// Brings the catalog up to date, as a mount's watcher does after a change; returns what the
    /// kernel would have been told to forget.
    func rescan() -> [Invalidation] {
        let collected = Mutex<[Invalidation]>([])
        whenKernelMustForget { changes in collected.withLock { $0 += changes } }
        defer { whenKernelMustForget { _ in } }
        synchronize(.everything)
        return collected.withLock { $0 }
    }
}

/// A renderer that holds every render until released, and counts them: concurrency made
/// deterministic (as Nuke's tests suspend their mock loaders).
final class HeldRenderer: RenditionMaking, @unchecked Sendable {
    private let gate = DispatchSemaphore(value: 0)
    private let count = Mutex(0)
    var calls: Int { count.withLock { $0 } }

    func release() { gate.signal() }

    func render(_ file: FileDescriptor, format: SourceFormat, spec: RenditionSpec, name: String) throws(RenditionError) -> Rendition {
        count.withLock { $0 += 1 }
        gate.wait()
        gate.signal()  // once released, stay open
        return try Renderer().render(file, format: format, spec: spec, name: name)
    }
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
        // A second filesystem over the same cache (after the first has stopped, as at a remount)
        // knows the size without rendering.
        fs.shutdown()
        let again = try fixture.fileSystem()
        #expect(try again.lookupPath("groups/A/one/thumbnail.jpg").get().size == attributes.size)
        #expect(try again.readAll("groups/A/one/thumbnail.jpg").get() == bytes)
        #expect(again.renders == 0)
    }

    @Test func concurrentMissesOfOneRenditionRenderOnce() throws {
        let fixture = Fixture(["A/one.jpg": "cameras/canon_hdr_NO.jpg"])
        let renderer = HeldRenderer()
        let fs = try fixture.fileSystem(renderer: renderer)
        // Its number from the listing: a lookup would need the size, i.e. the render held below.
        let asset = try fs.lookupPath("groups/A/one").get()
        let fullscreen = try #require(try fs.list(asset.inode).get().first { $0.name == Array("fullscreen.jpg".utf8) }).inode
        // 32 reads of one uncached rendition, all asked before the one render may finish.
        let results = Mutex<[Result<[UInt8], Errno>]>([])
        let done = DispatchGroup()
        for _ in 0..<32 {
            done.enter()
            fs.readOnce(fullscreen, size: 1 << 20) { result in
                results.withLock { $0.append(result) }
                done.leave()
            }
        }
        renderer.release()
        done.wait()
        let all = try results.withLock { $0 }.map { try $0.get() }
        #expect(all.count == 32 && Set(all).count == 1 && !all[0].isEmpty)
        #expect(renderer.calls == 1)
    }

    @Test func aBrokenPhotoShowsAPlaceholderWithItsReasonAndKeepsItsOriginal() throws {
        let fixture = Fixture(["A/a-bad.jpg": "malformed/missing-sos.jpg", "A/b-good.jpg": "malformed/grayscale.jpg"])
        let fs = try fixture.fileSystem()
        let placeholder = try #require(Renderer.placeholder)
        #expect(try fs.lookupPath("groups/A/a-bad/thumbnail.jpg").get().size == Int64(placeholder.count))
        #expect(try fs.readAll("groups/A/a-bad/fullscreen.jpg").get() == placeholder)
        #expect(try fs.readAll("groups/A/a-bad/thumbnail.jpg").get() == placeholder)
        #expect(fs.renders == 2)  // thumbnail and fullscreen, each tried once
        #expect(fs.statistics.renderFailures.load(ordering: .relaxed) == 2)
        let asset = try fs.lookupPath("groups/A/a-bad").get()
        #expect(fs.extendedAttributeNames(asset.inode, as: .ofThisProcess).contains(MountLayout.errorAttribute))
        let reason = String(decoding: try fs.extendedAttribute(asset.inode, name: MountLayout.errorAttribute, as: .ofThisProcess).get(), as: UTF8.self)
        // Named inside SOURCE: other users of the mount read it, and SOURCE's place is not theirs to know.
        #expect(reason.hasPrefix("A/a-bad.jpg: ") && reason.contains("corrupt") && !reason.contains(fixture.source.description), "\(reason)")
        #expect(fs.catalog.read { fs.brokenAssets(in: $0) } == [AssetFileSystem.BrokenAsset(mountPath: FilePath("groups/A/a-bad"), reason: reason)])
        #expect(try fs.readAll("groups/A/a-bad/original.jpg").get().count == 104)
        // The album poster is the first photo that renders, not the placeholder.
        let good = try fs.readAll("groups/A/b-good/thumbnail.jpg").get()
        #expect(try fs.readAll("groups/A/thumbnail.jpg").get() == good)
        #expect(try fs.lookupPath("groups/A/thumbnail.jpg").get().size == Int64(good.count))
    }

    @Test func withBrokenEqualsErrorABrokenPhotoIsEIO() throws {
        let fixture = Fixture(["A/bad.jpg": "malformed/missing-sos.jpg"])
        var options = MountOptions()
        options.brokenPhotos = .error
        let fs = try fixture.fileSystem(options: options)
        #expect(fs.lookupPath("groups/A/bad/thumbnail.jpg") == .failure(.io))
        #expect(fs.readAll("groups/A/bad/fullscreen.jpg") == .failure(.io))
        #expect(fs.lookupPath("groups/A/thumbnail.jpg") == .failure(.io))
        #expect(fs.renders == 2)
    }

    @Test func aPhotoThatCannotBeOpenedIsRetriedNotRemembered() throws {
        let fixture = Fixture(["A/one.jpg": "cameras/Nikon_D5000.jpg"])
        let fs = try fixture.fileSystem()
        let photo = "\(fixture.source)/A/one.jpg", away = "\(fixture.folder)/one.jpg"
        #expect(rename(photo, away) == 0)
        #expect(fs.lookupPath("groups/A/one/thumbnail.jpg") == .failure(.notFound))
        #expect(rename(away, photo) == 0)
        _ = fs.rescan()  // the rename changed the photo's ctime: a mount's watcher rescans
        #expect(try fs.readAll("groups/A/one/thumbnail.jpg").get().starts(with: [0xFF, 0xD8]))
        let store = try RenditionStore(path: fixture.cachePath, capacity: 1 << 30)
        #expect(try store.statistics().outcomes <= 1)  // only the thumbnail that rendered; no failure kept
        #expect(fs.catalog.read { fs.brokenAssets(in: $0) }.isEmpty)
    }

    @Test func anEditWithItsModificationTimePutBackIsNoticed() throws {
        let fixture = Fixture(["A/one.jpg": "orientation/Landscape_1.jpg"])
        let fs = try fixture.fileSystem()
        let before = try fs.readAll("groups/A/one/thumbnail.jpg").get()
        let path = FilePath("\(fixture.source)/A/one.jpg")
        let status = try FileStatus(path: path)
        // Same size, different bytes (as an in-place metadata edit), then the old mtime restored.
        let file = open(path.description, O_WRONLY)
        var bytes = try OwnedFileDescriptor.openReadOnly(path).read(upTo: Int(status.size), at: 0)
        for index in stride(from: bytes.count - 2000, to: bytes.count - 2, by: 1) where bytes[index] != 0xFF && bytes[index + 1] != 0xFF { bytes[index] ^= 0x55 }
        #expect(pwrite(file, bytes, bytes.count, 0) == bytes.count)
        close(file)
        let seconds = status.modificationNanoseconds / 1_000_000_000
        var times = [timespec(tv_sec: Int(seconds), tv_nsec: 0), timespec(tv_sec: Int(seconds), tv_nsec: Int(status.modificationNanoseconds % 1_000_000_000))]
        #expect(utimensat(AT_FDCWD, path.description, &times, 0) == 0)
        #expect(try FileStatus(path: path).modificationNanoseconds == status.modificationNanoseconds)
        _ = fs.rescan()
        #expect(try fs.readAll("groups/A/one/thumbnail.jpg").get() != before)
    }

    @Test func sizesStayExactAfterTheCacheIsClearedBesideIt() throws {
        let fixture = Fixture(["A/one.jpg": "cameras/Nikon_D5000.jpg", "A/two.jpg": "cameras/canon_hdr_NO.jpg"])
        let fs = try fixture.fileSystem()
        for name in ["one", "two"] { _ = try fs.readAll("groups/A/\(name)/thumbnail.jpg").get() }
        try RenditionStore(path: fixture.cachePath, capacity: 1 << 30).clear()  // `assetfs cache clear` beside the mount
        for name in ["one", "two"] {
            for kind in ["thumbnail", "fullscreen"] {
                let path = "groups/A/\(name)/\(kind).jpg"
                #expect(try fs.lookupPath(path).get().size == Int64(try fs.readAll(path).get().count))
            }
        }
    }

    @Test func aSizeViewIsTheSameFileAndRendersOnlyThatSize() throws {
        let fixture = Fixture(["A/one.jpg": "cameras/Nikon_D5000.jpg", "A/two.jpg": "orientation/Landscape_6.jpg"])
        let fs = try fixture.fileSystem()
        let root = try fs.list(1).get().map { String(decoding: $0.name, as: UTF8.self) }
        #expect(root == ["groups", "thumbnails", "fullscreen", "dates", "events", "places", "people", "tags", "favorites", "videos", "ids"])
        let view = try fs.lookupPath("thumbnails/A").get()
        #expect(try fs.list(view.inode).get().map { String(decoding: $0.name, as: UTF8.self) } == ["one.jpg", "two.jpg"])
        #expect(fs.renders == 0)  // listing renders nothing
        let viewed = try fs.lookupPath("thumbnails/A/one.jpg").get()
        #expect(fs.renders == 1)  // a stat renders only what it names
        let twin = try fs.lookupPath("groups/A/one/thumbnail.jpg").get()
        #expect(viewed == twin && viewed.linkCount == 3)  // asset folder, view, dates/
        #expect(try fs.readAll("fullscreen/A/two.jpg").get() == (try fs.readAll("groups/A/two/fullscreen.jpg").get()))
        #expect(fs.lookupPath("thumbnails/A/one") == .failure(.notFound))
        #expect(fs.lookupPath("thumbnails/A/thumbnail.jpg") == .failure(.notFound))
        // A change of the photo makes both names stale.
        fixture.copy("orientation/Portrait_1.jpg", to: "A/one.jpg")
        let changes = fs.rescan()
        #expect(changes.contains(.entry(parent: view.inode, name: Array("one.jpg".utf8))))
        #expect(changes.contains(.entry(parent: try fs.lookupPath("groups/A/one").get().inode, name: Array("thumbnail.jpg".utf8))))
    }

    @Test func pruningForgetsRenditionsOfPhotosGoneOrChanged() throws {
        let fixture = Fixture(["A/one.jpg": "cameras/Nikon_D5000.jpg", "A/two.jpg": "orientation/Landscape_6.jpg"])
        let store = try RenditionStore(path: fixture.cachePath, capacity: 1 << 30)
        let fs = try fixture.fileSystem(store: store)
        for name in ["one", "two"] { _ = try fs.readAll("groups/A/\(name)/thumbnail.jpg").get() }
        fs.pipeline.waitForWrites()
        #expect(try store.statistics().outcomes == 2)
        fixture.copy("orientation/Portrait_1.jpg", to: "A/one.jpg")  // one changes
        _ = fs.rescan()
        let current = try fs.readAll("groups/A/one/thumbnail.jpg").get()
        fs.pipeline.waitForWrites()
        #expect(try store.statistics().outcomes == 3)
        let stale = CacheKey(Array("A/two.jpg".utf8) + [0] + Array("1:2:3:4:256:85:\(Renderer.fingerprint)".utf8))
        try store.store([1, 2, 3], for: stale)
        let forgotten = try fs.catalog.read { (catalog) throws(DatabaseError) in try store.forget { !RenditionRequest.isCurrent($0, in: catalog) } }
        #expect(forgotten == 2, "one's old version and the made-up identity of two")
        #expect(try store.statistics().outcomes == 2)
        #expect(try fs.readAll("groups/A/one/thumbnail.jpg").get() == current)
        #expect(fs.renders == 3)  // nothing current was forgotten
    }

    @Test func readsReturnTheRequestedRange() throws {
        let fixture = Fixture(["A/one.jpg": "cameras/Nikon_D5000.jpg"])
        let fs = try fixture.fileSystem()
        let original = try fs.lookupPath("groups/A/one/original.jpg").get()
        let file = try wait { fs.open(original.inode, as: .ofThisProcess, completion: $0) }.get()
        let source = try OwnedFileDescriptor.openReadOnly(fixture.source.appending(FilePath("A/one.jpg")))
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
        let file = try wait { fs.open(attributes.inode, as: .ofThisProcess, completion: $0) }.get()
        _ = try fs.readAll("groups/A/two/fullscreen.jpg").get()  // evicts one's bytes
        let middle = try wait { fs.read(file, size: 5000, offset: 10_000, completion: $0) }.get()
        #expect(middle == Array(whole[10_000..<15_000]))
        #expect(try store.contains(RenditionRequest(photo: fs.firstPhoto, spec: fs.options.spec(fs.options.sizes.fullscreen)).key) == false)
        #expect(fs.renders > 2)  // nothing stays cached under this cap: reads rendered the same bytes again
    }

    @Test func statisticsAndSourceAttributes() throws {
        let fixture = Fixture(["A/one.jpg": "cameras/Nikon_D5000.jpg", "A/notes.txt": "README.md"])
        let fs = try fixture.fileSystem()
        let asset = try fs.lookupPath("groups/A/one").get()
        #expect(try fs.extendedAttribute(asset.inode, name: MountLayout.sourceAttribute, as: .ofThisProcess).get() == Array("A/one.jpg".utf8))
        let json = String(decoding: try fs.extendedAttribute(1, name: MountLayout.statsAttribute, as: .ofThisProcess).get(), as: UTF8.self)
        #expect(json.contains("\"albums\":1") && json.contains("\"assets\":1") && json.contains("\"skipped\":1") && json.contains("\"renders\":0"))
        #expect(fs.extendedAttribute(asset.inode, name: Array("user.other".utf8), as: .ofThisProcess) == .failure(.noAttribute))
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
        // A new version is a new file to the kernel; the old one still reads by its number.
        #expect(after.inode != before.inode && after.size != before.size)
        #expect(try wait { fs.readOnce(before.inode, size: 1 << 20, completion: $0) }.get().count == Int(before.size))
        #expect(fs.lookupPath("groups/A/two") == .failure(.notFound))
    }

    @Test func withoutAStoreRenditionsAreServedFromMemory() throws {
        let fixture = Fixture(["A/one.jpg": "cameras/Nikon_D5000.jpg"])
        let fs = fixture.scanned(try AssetFileSystem(source: fixture.source.resolved(), options: MountOptions(), cache: .none,
                                                     catalog: fixture.catalogOpener, renderer: Renderer(), renderThreads: 1))
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
        let request = RenditionRequest(photo: fs.firstPhoto, spec: fs.options.spec(fs.options.sizes.thumbnail))
        fs.pipeline.waitForWrites()
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
        let photo = fs.firstPhoto
        // 512 distinct renditions (one per size) stored directly: the batch limit.
        let requests = (1...512).map { RenditionRequest(photo: photo, spec: RenditionSpec(longestSide: $0)) }
        for request in requests { try store.store([1, 2, 3], for: request.key) }
        let clock = try PipelineUseClock(store)
        let longAgo: Int64 = 1_000_000
        fs.pipeline.flushUses()
        try clock.setAll(to: longAgo)
        let before = Int64(time(nil))
        for request in requests.dropLast() { fs.pipeline.markUsed(request) }
        #expect(try clock.count(usedSince: before) == 0, "511 marks stay pending")
        fs.pipeline.markUsed(requests.last!)
        fs.pipeline.waitForWrites()  // the batch goes to the writer thread
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

/// Another user reaches a photo by any path only if SOURCE lets them read it.
@Suite struct OtherUsersTests {
    let stranger = Credentials(userID: 65534, groupID: 65534)

    @Test func everyViewOfAPhotoInAClosedFolderIsClosedToOthers() throws {
        let fixture = Fixture(["Open/open.jpg": "orientation/Landscape_1.jpg", "Secret/secret.jpg": "orientation/Landscape_6.jpg"])
        // Modes set here, whatever the umask of this process (the catalog's files are made under 077).
        _ = system("chmod -R go+rX '\(fixture.folder)'")
        _ = fixture.source.appending(FilePath("Secret")).withCString { chmod($0, 0o700) }
        let fs = try fixture.fileSystem()
        func names(_ path: String, as caller: Credentials) throws -> [String] {
            try fs.list(fs.lookupPath(path).get().inode, after: 0, limit: 1000, as: caller).get().map { String(decoding: $0.name, as: UTF8.self) }
        }
        #expect(try names("groups", as: .ofThisProcess) == ["Open", "Secret"])
        #expect(try names("groups", as: stranger) == ["Open"])
        #expect(try names("thumbnails", as: stranger) == ["Open"])
        let secret = try fs.lookupPath("groups/Secret/secret").get()
        let open = try fs.lookupPath("groups/Open/open").get()
        // (dates/ is the same gate: Tests/Reliability/security.py reads it as a real other user)
        #expect(fs.extendedAttribute(secret.inode, name: MountLayout.sourceAttribute, as: stranger) == .failure(.permissionDenied))
        #expect(wait { fs.getattr(secret.inode, as: stranger, completion: $0) }.map(\.inode) == .failure(.permissionDenied))
        #expect(fs.access(secret.inode, R_OK, as: stranger) == .permissionDenied)
        #expect(fs.access(open.inode, R_OK, as: stranger) == nil)
        let original = try #require(fs.list(secret.inode, after: 0, limit: 10, as: .ofThisProcess).get().last)
        #expect(wait { fs.open(original.inode, as: stranger, completion: $0) }.map { _ in true } == .failure(.permissionDenied))
        #expect(fs.renders == 0)  // nothing of the secret photo was rendered for the stranger
        let poster = wait { fs.lookup(parent: try! fs.lookupPath("groups/Secret").get().inode, name: Array("thumbnail.jpg".utf8),
                                      as: stranger, completion: $0) }
        #expect(poster.map(\.inode) == .failure(.permissionDenied))
    }

    /// A view's folder is shown to another user only if it holds a photo they may read (its name,
    /// a person or a place, says something of the photos); a member only if its photo is theirs.
    @Test func aViewsFoldersShowOthersOnlyWhatTheyMayRead() throws {
        let fixture = Fixture(["Open/open.jpg": "orientation/Landscape_1.jpg", "Secret/secret.jpg": "orientation/Landscape_6.jpg"])
        _ = system("chmod -R go+rX '\(fixture.folder)'")
        _ = fixture.source.appending(FilePath("Secret")).withCString { chmod($0, 0o700) }
        let fs = try fixture.fileSystem()
        fs.readPendingProperties()
        let rows = fs.catalog.read { catalog in
            ["Open", "Secret"].compactMap { catalog.album(named: Array($0.utf8)) }.flatMap { catalog.photos(inFolder: $0.id, after: 0, limit: 10) }
        }
        let people = ["open.jpg": ["Anna", "Bo"], "secret.jpg": ["Anna", "Carl"]]
        try fs.catalog.record(rows.compactMap { row in
            fs.catalog.read { $0.properties(ofPhoto: row.id) }.map { read in
                var properties = read
                (properties.people, properties.rating) = (people[String(decoding: row.photo.fileName, as: UTF8.self)] ?? [], 5)
                return (photo: row, properties: properties)
            }
        })
        func names(_ path: String, as caller: Credentials) throws -> [String] {
            try fs.list(fs.lookupPath(path).get().inode, after: 0, limit: 1000, as: caller).get().map { String(decoding: $0.name, as: UTF8.self) }.sorted()
        }
        #expect(try names("people", as: .ofThisProcess) == ["Anna", "Bo", "Carl"])
        #expect(try names("people", as: stranger) == ["Anna", "Bo"], "Carl is only in the secret photo")
        #expect(try names("people/Anna", as: stranger) == ["open"])
        #expect(try names("favorites", as: stranger) == ["open"])
        let carl = try fs.lookupPath("people/Carl").get()
        #expect(wait { fs.getattr(carl.inode, as: stranger, completion: $0) }.map(\.inode) == .failure(.permissionDenied))
        let top = try fs.lookupPath("people").get()
        #expect(wait { fs.lookup(parent: top.inode, name: Array("Carl".utf8), as: stranger, completion: $0) }.map(\.inode) == .failure(.permissionDenied))
        let member = try fs.lookupPath("people/Anna/secret").get()
        #expect(fs.access(member.inode, R_OK, as: stranger) == .permissionDenied)
    }
}
