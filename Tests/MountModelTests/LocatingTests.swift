import Posix
import SQLiteDatabase
import Testing
@testable import Catalog
@testable import MountModel
@testable import PhotoSource

/// `MountTree.paths(showing:)`, what `assetfs locate` prints, over a catalog made here: groups/,
/// the size views, dates/, the views' members and ids/ (which only the first copy of an id gets).
@Suite struct LocatingTests {
    @Test func everyPathOfAPhotoAndOfItsCopy() throws {
        let catalog = try ScratchCatalog()
        try catalog.apply("", [], subfolders: ["A", "B"])
        try catalog.apply("A", ["a.jpg"])
        try catalog.apply("B", ["copy.jpg"])
        let id = try #require(ContentID(digest: Array(1...16)))
        let rows = catalog.store.read { $0.undatedPhotos(after: 0, limit: 10) }
        try catalog.store.record(rows.map { row in
            var properties = CatalogStore.Properties(date: "2024-01-05T10:00:00", dateSource: .exifOriginal, day: 20240105)
            properties.contentID = id
            return (row, properties)
        })
        let a = try #require(rows.first { $0.photo.fileName == Array("a.jpg".utf8) })
        let copy = try #require(rows.first { $0.photo.fileName == Array("copy.jpg".utf8) })
        let folders = try catalog.store.change { db throws(DatabaseError) -> Int64? in
            guard let travel = try CatalogStore.folderID(view: .tags, parent: 0, name: Array("Travel".utf8), create: true, db),
                  let norway = try CatalogStore.folderID(view: .tags, parent: travel, name: Array("Norway".utf8), create: true, db) else { return nil }
            try CatalogStore.addMember(photo: a.id, folder: .init(.tags, id: norway), assetName: a.assetName, db)
            try CatalogStore.addMember(photo: a.id, folder: .init(.favorites, id: 0), assetName: a.assetName, db)
            return norway
        }
        #expect(folders != nil)
        func paths(_ row: CatalogStore.PhotoRow) -> [String] {
            catalog.store.read { catalog.tree.paths(showing: row, in: $0) }.map { String(decoding: $0, as: UTF8.self) }
        }
        #expect(paths(a) == ["groups/A/a", "thumbnails/A/a.jpg", "fullscreen/A/a.jpg", "dates/2024/2024-01-05/a",
                             "tags/Travel/Norway/a", "favorites/a", "ids/\(id)"])
        #expect(paths(copy) == ["groups/B/copy", "thumbnails/B/copy.jpg", "fullscreen/B/copy.jpg", "dates/2024/2024-01-05/copy"])
        // Every path the tree prints, it resolves.
        for path in paths(a) where !path.hasPrefix("tags/") && !path.hasPrefix("favorites/") {
            #expect(catalog.node(path) != nil, "\(path)")
        }
    }
}
