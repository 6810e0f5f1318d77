import Posix
import SQLiteDatabase
import Testing
@testable import Catalog
@testable import MountModel
import PhotoSource

/// A catalog of version 9 (the views, no content ids) gains the content_id column and its index in
/// place: its rows, properties and views stay, and its photos are the ones lacking an id.
@Suite struct ContentIDUpgradeTests {
    @Test func aVersion9CatalogKeepsItsRowsAndGainsContentIDs() throws {
        let catalog = try ScratchCatalog()
        try catalog.apply("", [], subfolders: ["A"])
        try catalog.apply("A", ["IMG_1.jpg"])
        try catalog.date(["IMG_1.jpg": 20240115])
        let before = try #require(catalog.node("groups/A/IMG_1"))
        do {
            let db = try Database(path: catalog.store.path)
            try catalog.keepVersion11Properties(db)
            try db.execute("""
                DROP INDEX properties_by_content; ALTER TABLE properties DROP COLUMN content_id; PRAGMA user_version = 9;
                """)
        }
        try catalog.reopen()
        #expect(catalog.node("groups/A/IMG_1") == before)
        #expect(catalog.node("dates/2024/2024-01-15/IMG_1") != nil, "the views stay")
        let db = try Database(path: catalog.store.path)
        var version: Int64 = 0, indexes: Int64 = -1
        try db.query("PRAGMA user_version") { version = $0.integer(0) }
        try db.query("SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = 'properties_by_content'") { indexes = $0.integer(0) }
        #expect(version == Int64(CatalogStore.schemaVersion) && version == 13 && indexes == 1)
        let lacking = catalog.store.read { $0.photosLackingContentID(after: 0, limit: 10) }
        #expect(lacking.map { String(decoding: $0.photo.fileName, as: UTF8.self) } == ["IMG_1.jpg"])
        try catalog.store.recordContentIDs(lacking.map { ($0, ContentID(digest: Array(1...16))) })
        #expect(catalog.store.read { $0.photosLackingContentID(after: 0, limit: 10) }.isEmpty)
    }
}
