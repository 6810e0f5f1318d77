import Posix
import SQLiteDatabase
import Testing
@testable import Catalog
import PhotoSource

/// Rendition digests: only photos with a copy ask for one; it is kept for the version it was made
/// of, carried in the photo's row, found by digest, and lost when the file changes.
@Suite struct RenditionDigestCatalogTests {
    static func row(_ catalog: ScratchCatalog, _ path: String) throws -> CatalogStore.PhotoRow {
        try #require(catalog.store.read { $0.photo(at: FilePath(path)) })
    }

    static func lacking(_ catalog: ScratchCatalog) -> [String] {
        catalog.store.read { $0.photosLackingRenditionDigest(after: 0, limit: 10) }.map { text($0.photo.relativePath.bytes) }
    }

    static let digest: [UInt8] = Array(100...115)

    @Test func onlyCopiesAskForADigestAndCarryIt() throws {
        let catalog = try DuplicatesTests.takeout()
        #expect(Self.lacking(catalog).isEmpty, "no copy known before the content ids")
        try DuplicatesTests.recordIDs(catalog)
        #expect(Self.lacking(catalog) == ["Trip/PXL_1.jpg", "Photos from 2023/PXL_1.jpg"])
        try catalog.store.recordRenditionDigests(try ["Trip/PXL_1.jpg", "Photos from 2023/PXL_1.jpg"].map { (try Self.row(catalog, $0), Self.digest) })
        #expect(Self.lacking(catalog).isEmpty)
        #expect(try Self.row(catalog, "Trip/PXL_1.jpg").renditionDigest == Self.digest)
        #expect(try Self.row(catalog, "Photos from 2023/PXL_1.jpg").renditionDigest == Self.digest)
        #expect(try Self.row(catalog, "Photos from 2023/other.jpg").renditionDigest == nil, "no copy: its own key")
        #expect(catalog.store.read { $0.photos(withRenditionDigest: Self.digest) }.map(\.photo.fileName).count == 2)
    }

    @Test func aChangedCopyLosesItsDigestUntilReadAgain() throws {
        let catalog = try DuplicatesTests.takeout()
        try DuplicatesTests.recordIDs(catalog)
        let stale = try Self.row(catalog, "Trip/PXL_1.jpg")
        try catalog.apply("Trip", ["PXL_1.jpg"], size: 11)  // edited: a new version
        try catalog.store.recordRenditionDigests([(stale, Self.digest), (try Self.row(catalog, "Photos from 2023/PXL_1.jpg"), Self.digest)])
        #expect(try Self.row(catalog, "Trip/PXL_1.jpg").renditionDigest == nil, "made of the version before: not stored")
        #expect(catalog.store.read { $0.photos(withRenditionDigest: CatalogStore.lone(Self.digest)) }.map { text($0.photo.relativePath.bytes) }
                == ["Photos from 2023/PXL_1.jpg"], "the only one with it: stored alone")
        try catalog.apply("Photos from 2023", ["PXL_1.jpg", "other.jpg"], size: 12)
        #expect(try Self.row(catalog, "Photos from 2023/PXL_1.jpg").renditionDigest == nil, "changed after its digest: lost with its properties")
        #expect(catalog.store.read { $0.photos(withRenditionDigest: CatalogStore.lone(Self.digest)) }.isEmpty)
        #expect(Self.lacking(catalog).isEmpty, "asked for again only once its properties and content id are")
    }

    /// A digest only one photo has keeps that photo on its own key (a copy of its picture with
    /// other bytes, say tags written into it, shares nothing); the first other photo with the same
    /// digest makes both share it.
    @Test func aDigestNobodyElseHasIsSharedOnlyOnceACopyHasIt() throws {
        let catalog = try DuplicatesTests.takeout()
        try DuplicatesTests.recordIDs(catalog)
        try catalog.store.recordRenditionDigests([(try Self.row(catalog, "Trip/PXL_1.jpg"), Self.digest)])
        #expect(try Self.row(catalog, "Trip/PXL_1.jpg").renditionDigest == nil, "no other photo's file has it yet: its own key")
        #expect(catalog.store.read { $0.photos(withRenditionDigest: Self.digest) }.isEmpty)
        #expect(Self.lacking(catalog) == ["Photos from 2023/PXL_1.jpg"])
        try catalog.store.recordRenditionDigests([(try Self.row(catalog, "Photos from 2023/PXL_1.jpg"), Self.digest)])
        #expect(try Self.row(catalog, "Trip/PXL_1.jpg").renditionDigest == Self.digest, "the one that had it alone shares it now")
        #expect(try Self.row(catalog, "Photos from 2023/PXL_1.jpg").renditionDigest == Self.digest)
        #expect(catalog.store.read { $0.photos(withRenditionDigest: Self.digest) }.count == 2)
    }

    /// A poster reads a few frames: a video copied is not read whole to share it.
    @Test func videoCopiesAskForNoDigest() throws {
        let catalog = try ScratchCatalog()
        try catalog.apply("", [], subfolders: ["Trip", "Photos from 2023"])
        for album in ["Trip", "Photos from 2023"] {
            try catalog.apply(album, ["clip.mp4"])
            try catalog.record(["clip.mp4": ViewsTests.properties { $0.taken = 1_693_562_400 }], in: album)
        }
        let lacking = catalog.store.read { $0.photosLackingContentID(after: 0, limit: 10) }
        #expect(lacking.count == 2)
        try catalog.store.recordContentIDs(lacking.map { ($0, ContentID(digest: Array(1...16))) })
        #expect(Self.lacking(catalog).isEmpty)
    }

    @Test func aFileThatCannotBeReadIsNotAskedAgain() throws {
        let catalog = try DuplicatesTests.takeout()
        try DuplicatesTests.recordIDs(catalog)
        try catalog.store.recordRenditionDigests([(try Self.row(catalog, "Trip/PXL_1.jpg"), nil)])
        #expect(Self.lacking(catalog) == ["Photos from 2023/PXL_1.jpg"])
        #expect(try Self.row(catalog, "Trip/PXL_1.jpg").renditionDigest == nil)
    }

    @Test func aVersion12CatalogGainsTheColumnAndItsCopiesAskForDigests() throws {
        let catalog = try DuplicatesTests.takeout()
        try DuplicatesTests.recordIDs(catalog)
        do {
            let db = try Database(path: catalog.store.path)
            try db.execute("DROP INDEX properties_by_rendition_digest; ALTER TABLE properties DROP COLUMN rendition_digest; PRAGMA user_version = 12;")
        }
        try catalog.reopen()
        #expect(Self.lacking(catalog) == ["Trip/PXL_1.jpg", "Photos from 2023/PXL_1.jpg"])
        #expect(catalog.names("dates/2023/2023-09-01") == ["PXL_1", "other"], "the views stay")
    }
}
