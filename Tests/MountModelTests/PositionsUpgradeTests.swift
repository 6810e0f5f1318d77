import SQLiteDatabase
import Testing
@testable import Catalog

extension ScratchCatalog {
    /// Makes this catalog's properties what version 11 kept: a position as the text `location`
    /// ("lat,lon", 6 decimals), no mark of a place lent by a Live Photo's movie (12), no rendition
    /// digest (13).
    func keepVersion11Properties(_ db: Database) throws {
        try db.execute("""
            ALTER TABLE properties ADD COLUMN location TEXT;
            UPDATE properties SET location = printf('%.6f,%.6f', latitude, longitude) WHERE latitude IS NOT NULL;
            ALTER TABLE properties DROP COLUMN latitude; ALTER TABLE properties DROP COLUMN longitude;
            ALTER TABLE properties DROP COLUMN lent_by_movie;
            DROP INDEX properties_by_rendition_digest; ALTER TABLE properties DROP COLUMN rendition_digest;
            """)
    }
}

/// A catalog of version 11 (positions as text) becomes 12 in place: its positions become numbers
/// without a file read again, 0,0 none; a Live Photo still with its movie's very position or UTC
/// offset is marked as lent it until read again, which tells whether it was.
@Suite struct PositionsUpgradeTests {
    static let facts = [
        FileFacts(name: "IMG_0020.HEIC", day: 20210411, date: "2021-04-11T10:00:00", liveIdentifier: "A"),
        FileFacts(name: "IMG_0020.MOV", day: 20210411, date: "2021-04-11T10:00:00+01:00", dateSource: .quickTime,
                  latitude: 52.2097, longitude: -0.8955, liveIdentifier: "A"),
        FileFacts(name: "IMG_0021.HEIC", day: 20210411, date: "2021-04-11T11:00:00+02:00", latitude: 60.39, longitude: 5.32, liveIdentifier: "B"),
        FileFacts(name: "IMG_0021.MOV", day: 20210411, date: "2021-04-11T11:00:00+02:00", dateSource: .quickTime,
                  latitude: 60.39, longitude: 5.32, liveIdentifier: "B"),
        FileFacts(name: "IMG_0022.JPG", day: 20210411, date: "2021-04-11T12:00:00", latitude: -33.856784, longitude: 151.215297),
        FileFacts(name: "IMG_0023.JPG", day: 20210411, date: "2021-04-11T13:00:00", latitude: 1, longitude: 2),
    ]

    func position(_ catalog: ScratchCatalog, _ asset: String) throws -> (latitude: Double?, longitude: Double?, lent: CatalogStore.LentByMovie) {
        let node = try #require(catalog.node("groups/L/\(asset)"))
        let row = try #require(catalog.store.read { catalog.tree.photo(for: node, in: $0) })
        let properties = try #require(catalog.store.read { $0.properties(ofPhoto: row.id) })
        return (properties.latitude, properties.longitude, properties.lentByMovie)
    }

    @Test func aVersion11CatalogKeepsItsPositionsAsNumbers() throws {
        let catalog = try ScratchCatalog()
        try catalog.apply("L", Self.facts.map(\.name))
        try catalog.record(Self.facts)
        #expect(try position(catalog, "IMG_0020") == (52.2097, -0.8955, [.place, .utcOffset]))
        #expect(try position(catalog, "IMG_0021") == (60.39, 5.32, []), "its own position and offset")
        do {
            let db = try Database(path: catalog.store.path)
            try catalog.keepVersion11Properties(db)
            try db.execute("UPDATE properties SET location = '0.000000,0.000000' WHERE location = '1.000000,2.000000'; PRAGMA user_version = 11;")
        }
        try catalog.reopen()
        let db = try Database(path: catalog.store.path)
        var version: Int64 = 0, textColumns: Int64 = -1
        try db.query("PRAGMA user_version") { version = $0.integer(0) }
        try db.query("SELECT count(*) FROM pragma_table_info('properties') WHERE name = 'location'") { textColumns = $0.integer(0) }
        #expect(version == Int64(CatalogStore.schemaVersion) && version == 13 && textColumns == 0)
        #expect(try position(catalog, "IMG_0022") == (-33.856784, 151.215297, []))
        #expect(try position(catalog, "IMG_0023") == (nil, nil, []), "0,0 is no position")
        #expect(try position(catalog, "IMG_0020") == (52.2097, -0.8955, [.place, .utcOffset]))
        #expect(try position(catalog, "IMG_0021") == (60.39, 5.32, [.place, .utcOffset]), "its movie's very position and offset: lent, until read again")
        let queued = catalog.store.read { $0.undatedPhotos(after: 0, limit: 10) }.map { text($0.photo.fileName) }
        #expect(queued == ["IMG_0020.HEIC", "IMG_0021.HEIC"], "only the stills that may have been lent a place are read again")
        try catalog.record(Self.facts)
        #expect(try position(catalog, "IMG_0020") == (52.2097, -0.8955, [.place, .utcOffset]))
        #expect(try position(catalog, "IMG_0021") == (60.39, 5.32, []))
    }
}
