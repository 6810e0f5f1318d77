import Testing
@testable import Catalog
@testable import PhotoSource

/// A photo changed while a reader has its files open: the version it had is kept for that reader
/// (`retiredPhoto`), as it was, motion included (issue 30 item 2: the retired row selected 14
/// columns and was decoded as 18, so it read as "properties not read yet").
@Suite struct RetiredPhotoTests {
    @Test func aRetiredVersionIsTheVersionItWasMotionIncluded() throws {
        let catalog = try ScratchCatalog()
        try catalog.apply("M", ["moving.jpg"])
        let row = try #require(catalog.store.read { $0.undatedPhotos(after: 0, limit: 1) }.first)
        let properties = CatalogStore.Properties(date: "2024-01-01T00:00:00", dateSource: .exifOriginal, day: 20240101, motion: 100..<200)
        _ = try catalog.store.record([(row, properties)])
        let before = try #require(catalog.store.read { $0.photo(row.id) })
        #expect(before.motionFacts == .embedded(100..<200))

        try catalog.apply("M", ["moving.jpg"], size: 11)  // a new version: its properties are read again
        let now = try #require(catalog.store.read { $0.photo(row.id) })
        #expect(now.version == before.version + 1 && now.motionFacts == .unread)
        let retired = try #require(catalog.store.read { $0.retiredPhoto(row.id, version: before.version & 65535) })
        #expect(retired == before, "the retired version reads as \(retired), it was \(before)")
    }

    @Test func aRetiredLivePhotoStillKeepsItsMovie() throws {
        let catalog = try ScratchCatalog()
        try catalog.apply("L", ["IMG_1.HEIC", "IMG_1.MOV"])
        let rows = catalog.store.read { $0.undatedPhotos(after: 0, limit: 2) }
        let still = try #require(rows.first { $0.photo.fileName == Array("IMG_1.HEIC".utf8) })
        let movie = try #require(rows.first { $0.photo.fileName == Array("IMG_1.MOV".utf8) })
        for row in [still, movie] {
            let properties = CatalogStore.Properties(date: "2024-01-01T00:00:00", dateSource: .exifOriginal, day: 20240101,
                                                     liveIdentifier: "E905E6C6-C747-4805-942F-9904A0281F02")
            _ = try catalog.store.record([(row, properties)])
        }
        let before = try #require(catalog.store.read { $0.photo(still.id) })
        #expect(before.motionFacts == .pairedMovie(movie.id))
        try catalog.apply("L", ["IMG_1.HEIC", "IMG_1.MOV"], size: 12)
        #expect(try #require(catalog.store.read { $0.retiredPhoto(still.id, version: before.version & 65535) }) == before)
    }
}
