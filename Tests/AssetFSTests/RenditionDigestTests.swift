import Catalog
import Dispatch
import Glibc
import PhotoSource
import Posix
import RenditionCache
import Renditions
import Synchronization
import Testing
@testable import AssetFS

/// Copies of one photo share their renditions (issue 32): once their content ids show them to be
/// copies and their files are read whole (the rendition digest), the second copy's rendition is
/// the first's cache entry; a copy changed since is keyed as itself.
@Suite struct RenditionDigestTests {
    /// `A/one.jpg` and its byte-identical copy `B/one.jpg`, and `A/other.jpg`.
    static func copies() -> Fixture {
        Fixture(["A/one.jpg": "cameras/Canon_EOS_7D.jpg", "B/one.jpg": "cameras/Canon_EOS_7D.jpg", "A/other.jpg": "cameras/Kodak_DX4330.jpg"])
    }

    static func row(_ fs: AssetFileSystem, _ path: String) throws -> CatalogStore.PhotoRow {
        try #require(fs.catalog.read { $0.photo(at: FilePath(path)) })
    }

    static func thumbnailKey(_ fs: AssetFileSystem, _ path: String) throws -> CacheKey {
        RenditionRequest(try row(fs, path), spec: fs.options.spec(fs.options.sizes.thumbnail)).key
    }

    @Test func copiesAreRenderedOnceAndStoredOnce() throws {
        let fixture = Self.copies()
        let store = try RenditionStore(path: fixture.cachePath, capacity: 1 << 30)
        let fs = try fixture.fileSystem(store: store)
        fs.readPendingProperties()
        let digest = try #require(try Self.row(fs, "A/one.jpg").renditionDigest)
        let file = try OwnedFileDescriptor.openReadOnly(fixture.source.appending(FilePath("B/one.jpg")))
        #expect(digest == MD5.digest(try file.descriptor.readToEnd()), "the MD5 of the whole file")
        #expect(try Self.row(fs, "B/one.jpg").renditionDigest == digest)
        #expect(try Self.row(fs, "A/other.jpg").renditionDigest == nil, "no copy: never read again")
        let first = try fs.readAll("groups/A/one/thumbnail.jpg").get()
        #expect(try fs.readAll("groups/B/one/thumbnail.jpg").get() == first)
        #expect(fs.renders == 1)
        _ = try fs.readAll("groups/A/other/thumbnail.jpg").get()
        fs.pipeline.waitForWrites()
        let entries = try store.statistics().entries
        #expect(fs.renders == 2 && entries == 2)
    }

    @Test func aCopyChangedLaterHasItsOwnRenditionAndPruneKeepsTheSharedOneWhileAPhotoHasIt() throws {
        let fixture = Self.copies()
        let store = try RenditionStore(path: fixture.cachePath, capacity: 1 << 30)
        let fs = try fixture.fileSystem(store: store)
        fs.readPendingProperties()
        let shared = try Self.thumbnailKey(fs, "A/one.jpg")
        #expect(try Self.thumbnailKey(fs, "B/one.jpg") == shared)
        let first = try fs.readAll("groups/B/one/thumbnail.jpg").get()
        fixture.copy("orientation/Portrait_1.jpg", to: "B/one.jpg")
        _ = fs.rescan()
        #expect(try Self.row(fs, "B/one.jpg").renditionDigest == nil, "changed: its digest went with its version")
        #expect(try Self.thumbnailKey(fs, "B/one.jpg") != shared)
        #expect(try fs.readAll("groups/B/one/thumbnail.jpg").get() != first)
        #expect(try fs.readAll("groups/A/one/thumbnail.jpg").get() == first)
        #expect(fs.renders == 2)
        fs.readPendingProperties()
        #expect(try Self.row(fs, "B/one.jpg").renditionDigest == nil, "no longer a copy")
        fs.pipeline.waitForWrites()
        func prune() throws -> Int {
            try fs.catalog.read { (catalog) throws(DatabaseError) in try store.forget { !RenditionRequest.isCurrent($0, in: catalog) } }
        }
        #expect(try prune() == 0, "A still has the shared digest")
        #expect(unlink(fixture.source.appending(FilePath("A/one.jpg")).description) == 0)
        _ = fs.rescan()
        #expect(try prune() == 1, "no photo has it now")
    }

    /// Renditions made before the copies were known are theirs once the digests are made: stored
    /// under the shared key (one kept), never rendered again; prune forgets the copies' own keys.
    @Test func renditionsMadeBeforeTheDigestMoveToTheSharedKey() throws {
        let fixture = Self.copies()
        let store = try RenditionStore(path: fixture.cachePath, capacity: 1 << 30)
        let fs = try fixture.fileSystem(store: store)
        let first = try fs.readAll("groups/A/one/thumbnail.jpg").get()
        #expect(try fs.readAll("groups/B/one/thumbnail.jpg").get() == first)
        #expect(fs.renders == 2, "no digest yet: each copy its own key")
        fs.readPendingProperties()
        fs.pipeline.waitForWrites()
        #expect(try store.contains(Self.thumbnailKey(fs, "A/one.jpg")))
        let forgotten = try fs.catalog.read { (catalog) throws(DatabaseError) in try store.forget { !RenditionRequest.isCurrent($0, in: catalog) } }
        let entries = try store.statistics().entries
        #expect(forgotten == 2 && entries == 1, "the copies' own keys pruned, one entry kept")
        #expect(try fs.readAll("groups/A/one/thumbnail.jpg").get() == first)
        #expect(try fs.readAll("groups/B/one/thumbnail.jpg").get() == first)
        #expect(fs.renders == 2)
    }

    /// A failure is stored under the shared key too: tried once, and both copies are broken assets.
    @Test func brokenCopiesAreTriedOnceAndBothListed() throws {
        let fixture = Fixture(["A/bad.jpg": "malformed/null_height.jpg", "B/bad.jpg": "malformed/null_height.jpg"])
        let fs = try fixture.fileSystem()
        fs.readPendingProperties()
        #expect(try Self.row(fs, "A/bad.jpg").renditionDigest != nil)
        let placeholder = try #require(Renderer.placeholder)
        #expect(try fs.readAll("groups/A/bad/thumbnail.jpg").get() == placeholder)
        #expect(try fs.readAll("groups/B/bad/thumbnail.jpg").get() == placeholder)
        #expect(fs.renders == 1)
        fs.pipeline.waitForWrites()
        #expect(fs.catalog.read { fs.brokenAssets(in: $0) }.map(\.mountPath) == [FilePath("groups/A/bad"), FilePath("groups/B/bad")])
    }

    /// A shared failure names the copy asked about, never the one that was rendered: a reader
    /// allowed only B's album learns nothing of A's (`allow_other`): while this mount holds the
    /// failure, and once the store has it.
    @Test func aSharedFailureNamesTheCopyAskedAbout() throws {
        let fixture = Fixture(["A/bad.jpg": "malformed/null_height.jpg", "B/bad.jpg": "malformed/null_height.jpg"])
        let store = try RenditionStore(path: fixture.cachePath, capacity: 1 << 30)
        let fs = try fixture.fileSystem(store: store)
        fs.readPendingProperties()
        _ = try fs.readAll("groups/A/bad/thumbnail.jpg").get()
        func reasons(_ fs: AssetFileSystem) throws -> [String?] {
            try ["A", "B"].map { try EditRenditionSourceTests.errorAttribute(fs, "groups/\($0)/bad") }
        }
        let held = try reasons(fs)
        #expect(held[0]?.hasPrefix("A/bad.jpg: ") == true && held[1]?.hasPrefix("B/bad.jpg: ") == true, "\(held)")
        #expect(held[1]?.contains("A/") == false, "\(held)")
        fs.pipeline.waitForWrites()
        #expect(try reasons(fs) == held, "as the store has it")
        #expect(fs.catalog.read { fs.brokenAssets(in: $0) }.map(\.reason) == held.compactMap { $0 })
        #expect(fs.renders == 1)
    }

    /// `assetfs warm` asks for both copies at once: one render, counted once (the copy that
    /// joined it was already on its way into the cache); a failure is told to each under its own name.
    @Test(arguments: [("one.jpg", "cameras/Canon_EOS_7D.jpg"), ("bad.jpg", "malformed/null_height.jpg")])
    func warmCountsASharedRenderOnce(name: String, sample: String) throws {
        let fixture = Fixture(["A/\(name)": sample, "B/\(name)": sample])
        let fs = try fixture.fileSystem()
        fs.readPendingProperties()
        let requests = try ["A", "B"].map { RenditionRequest(try Self.row(fs, "\($0)/\(name)"), spec: fs.options.spec(fs.options.sizes.thumbnail)) }
        #expect(requests[0].key == requests[1].key)
        let results = Mutex<[String: RenditionPipeline.WarmResult]>([:])
        let done = DispatchGroup()
        for request in requests {
            done.enter()
            fs.pipeline.ensureStored(request) { result in
                results.withLock { $0[request.displayName] = result }
                done.leave()
            }
        }
        done.wait()
        let got = results.withLock { $0 }
        #expect(fs.renders == 1)
        if name == "one.jpg" {
            #expect(got.values.filter { $0 == .rendered }.count == 1 && got.values.filter { $0 == .alreadyCached }.count == 1, "\(got)")
        } else {
            for (path, result) in got {
                guard case .failed(let reason) = result else { Issue.record("\(path): \(result)"); continue }
                #expect(reason.hasPrefix("\(path): corrupt image"), "\(reason)")
            }
        }
    }

    @Test func aFileChangedOrGoneGetsNoDigest() throws {
        let fixture = Self.copies()
        let fs = try fixture.fileSystem()
        var photo = try Self.row(fs, "A/one.jpg").photo
        #expect(fs.renditionDigest(of: photo, shouldContinue: { true }) != .changed)
        photo.identity.size += 1
        #expect(fs.renditionDigest(of: photo, shouldContinue: { true }) == .changed)
        #expect(fs.renditionDigest(of: photo, shouldContinue: { false }) == .changed, "checked before any read")
        photo = try Self.row(fs, "A/one.jpg").photo
        #expect(fs.renditionDigest(of: photo, shouldContinue: { false }) == .later, "the mount stopping")
    }

    /// An original paired with its edit shows the edit; its copy elsewhere, alone, shows itself:
    /// the two originals share a digest, but the pair's renditions are keyed by its edit.
    @Test func anEditPairWhoseOriginalHasACopyShowsTheEdit() throws {
        let fixture = Fixture(["A/IMG_0003.JPG": "cameras/Casio_EX-S1.jpg", "A/IMG_E0003.JPG": "formats/Nikon_D1X_AdobeRGB.jpg",
                               "B/IMG_0003.JPG": "cameras/Casio_EX-S1.jpg"])
        let files = ["A/IMG_0003.JPG", "A/IMG_E0003.JPG", "B/IMG_0003.JPG"].map { "'\(fixture.source.appending(FilePath($0)))'" }
        #expect(system("exiftool -q -overwrite_original -DateTimeOriginal='2024:03:05 10:00:00' -Make=Apple -Model='iPhone 12' \(files.joined(separator: " "))") == 0)
        let fs = try fixture.fileSystem()
        fs.readPendingProperties()
        let original = try Self.row(fs, "A/IMG_0003.JPG")
        #expect(original.edit != nil, "paired")
        let copy = try Self.row(fs, "B/IMG_0003.JPG")
        #expect(original.renditionDigest != nil && original.renditionDigest == copy.renditionDigest, "byte-identical originals")
        let edited = try fs.readAll("groups/A/IMG_0003/thumbnail.jpg").get()
        let copyShows = try fs.readAll("groups/B/IMG_0003/thumbnail.jpg").get()
        #expect(edited != copyShows && fs.renders == 2)
    }
}
