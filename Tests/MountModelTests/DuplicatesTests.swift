import MountModel
import Posix
import Testing
@testable import Catalog
import PhotoSource

/// Copies of one content (Takeout's album and its `Photos from YYYY/`) are one asset in the views
/// built on dates and content, each still in its own `groups/` album; the next copy takes the
/// place of the representative that goes.
@Suite struct DuplicatesTests {
    /// A Takeout export: `PXL_1.jpg` in an album and in its year's folder, `other.jpg` beside it.
    static func takeout() throws -> ScratchCatalog {
        let catalog = try ScratchCatalog()
        try catalog.apply("", [], subfolders: ["Trip", "Photos from 2023"])
        try catalog.apply("Trip", ["PXL_1.jpg"])
        try catalog.apply("Photos from 2023", ["PXL_1.jpg", "other.jpg"])
        let properties = ViewsTests.properties { $0.taken = 1_693_562_400; $0.keywords = [["Travel"]]; $0.rating = 5 }
        try catalog.record(["PXL_1.jpg": properties], in: "Trip")
        try catalog.record(["PXL_1.jpg": properties, "other.jpg": properties], in: "Photos from 2023")
        return catalog
    }

    /// Records content ids: `PXL_1.jpg`s share one, `other.jpg` has its own.
    @discardableResult
    static func recordIDs(_ catalog: ScratchCatalog) throws -> [Invalidation] {
        let lacking = catalog.store.read { $0.photosLackingContentID(after: 0, limit: 10) }
        let batch = lacking.map { row in (photo: row, id: ContentID(digest: text(row.photo.fileName) == "PXL_1.jpg" ? Array(1...16) : Array(2...17))) }
        return catalog.tree.invalidations(for: try catalog.store.recordContentIDs(batch))
    }

    /// The names of every member under `view`'s folders, a level of folders (years) then events.
    static func eventMembers(_ catalog: ScratchCatalog) -> [String] {
        (catalog.names("events") ?? []).flatMap { year in
            (catalog.names("events/\(year)") ?? []).flatMap { event in catalog.names("events/\(year)/\(event)") ?? [] }
        }
    }

    @Test func copiesAreOneAssetInTheViewsOnceTheirIDsAreMade() throws {
        let catalog = try Self.takeout()
        #expect(catalog.names("dates/2023/2023-09-01") == ["PXL_1", "PXL_1 (2)", "other"], "before the ids, each copy is shown")
        #expect(Self.eventMembers(catalog).sorted() == ["PXL_1", "PXL_1 (2)", "other"])
        let invalidations = try Self.recordIDs(catalog)
        #expect(!invalidations.isEmpty, "the kernel is told the copy left")
        #expect(catalog.names("dates/2023/2023-09-01") == ["PXL_1", "other"])
        #expect(Self.eventMembers(catalog).sorted() == ["PXL_1", "other"])
        #expect(catalog.names("tags/Travel") == ["PXL_1", "other"] && catalog.names("favorites") == ["PXL_1", "other"])
        // The representative is the copy of lowest photo id (the album's, scanned first), as ids/ resolves it.
        #expect(catalog.node("dates/2023/2023-09-01/PXL_1/original.jpg") == catalog.node("groups/Trip/PXL_1/original.jpg"))
        #expect(catalog.names("groups/Photos from 2023") == ["thumbnail.jpg", "PXL_1", "other"], "each copy stays in its album")
        #expect(catalog.names("groups/Trip") == ["thumbnail.jpg", "PXL_1"])
    }

    @Test func whenTheRepresentativeGoesTheNextCopyTakesItsPlace() throws {
        let catalog = try Self.takeout()
        try Self.recordIDs(catalog)
        let update = try catalog.apply("Trip", [])
        #expect(catalog.names("dates/2023/2023-09-01") == ["PXL_1", "other"])
        #expect(catalog.node("dates/2023/2023-09-01/PXL_1/original.jpg") == catalog.node("groups/Photos from 2023/PXL_1/original.jpg"))
        #expect(Self.eventMembers(catalog).sorted() == ["PXL_1", "other"])
        #expect(catalog.names("tags/Travel") == ["PXL_1", "other"])
        #expect(catalog.invalidations(update).contains(.entry(parent: try #require(catalog.node("dates/2023/2023-09-01")).inode, name: Array("PXL_1".utf8))),
                "the kernel forgets the day's PXL_1: another asset now")
    }

    @Test func aCopyReadAgainComesBackOnlyUntilItsIDIsMadeAgain() throws {
        let catalog = try Self.takeout()
        try Self.recordIDs(catalog)
        try catalog.apply("Photos from 2023", ["PXL_1.jpg", "other.jpg"], size: 11)  // both changed: read again
        try catalog.record(["PXL_1.jpg": ViewsTests.properties { $0.taken = 1_693_562_400 }, "other.jpg": ViewsTests.properties()],
                           in: "Photos from 2023")
        #expect(catalog.names("dates/2023/2023-09-01")?.count == 3, "both copies, until the ids are made")
        try Self.recordIDs(catalog)
        #expect(catalog.names("dates/2023/2023-09-01") == ["PXL_1", "other"])
        #expect(catalog.node("dates/2023/2023-09-01/PXL_1/original.jpg") == catalog.node("groups/Trip/PXL_1/original.jpg"))
    }
}
