import MountModel
import Posix
import SQLiteDatabase
import Testing
@testable import Catalog
@testable import PhotoSource

extension ScratchCatalog {
    /// Records, for every photo not yet read, the date and camera `shots` gives by file name
    /// (a date from EXIF unless `source` says otherwise).
    @discardableResult
    func recordShots(_ shots: [String: (date: String, camera: String)], source: DateSource = .exifOriginal) throws -> [Invalidation] {
        let batch = store.read { $0.undatedPhotos(after: 0, limit: 10_000) }.compactMap { row -> (photo: CatalogStore.PhotoRow, properties: CatalogStore.Properties)? in
            guard let shot = shots[text(row.photo.fileName)] else { return nil }
            return (row, CatalogStore.Properties(date: shot.date, dateSource: source, day: 20240305, camera: Array(shot.camera.utf8)))
        }
        return tree.invalidations(for: try store.record(batch))
    }

    /// The file names of the photos shown in album `album`, each with its edit's if it has one,
    /// and the asset names under dates/.
    func pairs(album: String) -> [String] {
        guard let folder = node("groups/\(album)") else { return [] }
        return names(folder).filter { $0 != "thumbnail.jpg" }.compactMap { name in
            guard let asset = node("groups/\(album)/\(name)"), let row = store.read({ tree.photo(for: asset, in: $0) }) else { return nil }
            let edit = store.read { $0.edit(of: row) }
            return text(row.photo.fileName) + (edit.map { " + " + text($0.photo.fileName) } ?? "")
        }.sorted()
    }

    var datedAssets: [String] {
        names(.viewTop(.dates)).flatMap { year in names(node("dates/\(year)")!).flatMap { day in names(node("dates/\(year)/\(day)")!) } }.sorted()
    }
}

/// Issue 32 item 5: an edit and its original in one folder, named as an iPhone export or
/// Takeout names them and one shot by their content, are one asset; near-misses stay apart.
@Suite struct EditPairTests {
    static let shot = (date: "2024-03-05T10:00:00", camera: "Apple iPhone 12")

    @Test func namesOfEditsAndOriginals() {
        func partners(_ name: String) -> [String] { EditNames.partners(of: Array(name.utf8)).map { "\($0.isEdit ? "edit of" : "original of") \(text($0.stem))" } }
        #expect(partners("IMG_E0003.JPG") == ["edit of IMG_0003"])
        #expect(partners("IMG_0003.HEIC") == ["original of IMG_E0003", "original of IMG_0003-edited"])
        #expect(partners("IMG_1234-edited.jpg") == ["edit of IMG_1234"])
        #expect(partners("holiday.jpg") == ["original of holiday-edited"])
        #expect(partners("-edited.jpg") == ["original of -edited-edited"])
        #expect(partners("noextension").isEmpty)
        #expect(EditNames.name(Array("IMG_0003.JPG".utf8), hasStem: Array("IMG_0003".utf8)))
        #expect(!EditNames.name(Array("IMG_0003.JPG.json".utf8), hasStem: Array("IMG_0003".utf8)))
        #expect(!EditNames.name(Array("IMG_00031.JPG".utf8), hasStem: Array("IMG_0003".utf8)))
    }

    @Test(arguments: [("IMG_0003.HEIC", "IMG_E0003.JPG"), ("IMG_1234.jpg", "IMG_1234-edited.jpg")])
    func anEditAndItsOriginalAreOneAsset(original: String, edit: String) throws {
        for editFirst in [false, true] {
            let catalog = try ScratchCatalog()
            try catalog.apply("L", [editFirst ? edit : original])
            try catalog.recordShots([original: Self.shot, edit: Self.shot])
            try catalog.apply("L", [original, edit])
            try catalog.recordShots([original: Self.shot, edit: Self.shot])
            #expect(catalog.pairs(album: "L") == ["\(original) + \(edit)"], "edit first: \(editFirst)")
            #expect(catalog.datedAssets.count == 1)
            let asset = try #require(catalog.node("groups/L/\(original.prefix { $0 != "." })"))
            #expect(catalog.names(asset) == ["thumbnail.jpg", "fullscreen.jpg", ScratchCatalog.format(ofFile: original) == .heif ? "original.heic" : "original.jpg", "edited.jpg"])
            #expect(catalog.node("groups/L/\(original.prefix { $0 != "." })/edited.jpg") != nil)
            let editRow = try #require(catalog.store.read { $0.photo(at: FilePath("L").appending(Array(edit.utf8))) })
            #expect(catalog.store.read { $0.original(ofEdit: editRow.id) }.map { text($0.photo.fileName) } == original)
        }
    }

    @Test func nearMissesStayApart() throws {
        let catalog = try ScratchCatalog()
        try catalog.apply("L", ["IMG_0001.JPG", "IMG_E0001.JPG", "IMG_0002.JPG", "IMG_E0002.JPG", "IMG_E0005.JPG", "IMG_0006-edited.jpg",
                                "IMG_0007.JPG", "IMG_E00071.JPG"])
        try catalog.apply("M", ["IMG_0008.JPG"])
        try catalog.apply("N", ["IMG_E0008.JPG"])
        let other = (date: "2024-03-05T10:00:01", camera: Self.shot.camera)
        try catalog.recordShots(["IMG_0001.JPG": Self.shot, "IMG_E0001.JPG": other,                     // another date
                                 "IMG_0002.JPG": Self.shot, "IMG_E0002.JPG": (Self.shot.date, "Pixel 7"), // another camera
                                 "IMG_E0005.JPG": Self.shot, "IMG_0006-edited.jpg": Self.shot,           // lone edits
                                 "IMG_0007.JPG": Self.shot, "IMG_E00071.JPG": Self.shot,                 // another number
                                 "IMG_0008.JPG": Self.shot, "IMG_E0008.JPG": Self.shot])                 // other folders
        #expect(catalog.pairs(album: "L") == ["IMG_0001.JPG", "IMG_0002.JPG", "IMG_0006-edited.jpg", "IMG_0007.JPG",
                                              "IMG_E0001.JPG", "IMG_E0002.JPG", "IMG_E0005.JPG", "IMG_E00071.JPG"])
        #expect(catalog.pairs(album: "M") == ["IMG_0008.JPG"] && catalog.pairs(album: "N") == ["IMG_E0008.JPG"])
        #expect(catalog.datedAssets.count == 10)
    }

    /// Takeout dates the original from its JSON (with an offset), the edit's EXIF may have none:
    /// the same local time taken is the same date.
    @Test func theSameLocalTimeTakenIsTheSameDate() throws {
        let catalog = try ScratchCatalog()
        try catalog.apply("L", ["IMG_1234.jpg", "IMG_1234-edited.jpg"])
        let batch = catalog.store.read { $0.undatedPhotos(after: 0, limit: 10) }.map { row in
            var properties = CatalogStore.Properties(date: row.photo.fileName.count > 12 ? "2024-03-05T10:00:00" : "2024-03-05T10:00:00+01:00",
                                                     dateSource: .exifOriginal, day: 20240305, camera: Array(Self.shot.camera.utf8))
            properties.taken = 1_709_632_800
            return (photo: row, properties: properties)
        }
        try catalog.store.record(batch)
        #expect(catalog.pairs(album: "L") == ["IMG_1234.jpg + IMG_1234-edited.jpg"])
    }

    @Test func datesFromTheFilesTimeDoNotPair() throws {
        let catalog = try ScratchCatalog()
        try catalog.apply("L", ["IMG_0003.JPG", "IMG_E0003.JPG"])
        try catalog.recordShots(["IMG_0003.JPG": Self.shot, "IMG_E0003.JPG": Self.shot], source: .modificationTime)
        #expect(catalog.pairs(album: "L") == ["IMG_0003.JPG", "IMG_E0003.JPG"])
    }

    @Test(arguments: ["IMG_0003.JPG", "IMG_E0003.JPG"])
    func eitherHalfGoneUnpairs(gone: String) throws {
        let catalog = try ScratchCatalog()
        let files = ["IMG_0003.JPG", "IMG_E0003.JPG"]
        let shots = Dictionary(uniqueKeysWithValues: files.map { ($0, Self.shot) })
        try catalog.apply("L", files)
        try catalog.recordShots(shots)
        #expect(catalog.pairs(album: "L") == ["IMG_0003.JPG + IMG_E0003.JPG"])
        let kept = files.filter { $0 != gone }
        try catalog.apply("L", kept)
        try catalog.recordShots(shots)
        #expect(catalog.pairs(album: "L") == kept && catalog.datedAssets.count == 1)
        try catalog.apply("L", files)
        try catalog.recordShots(shots)
        #expect(catalog.pairs(album: "L") == ["IMG_0003.JPG + IMG_E0003.JPG"] && catalog.datedAssets.count == 1)
    }
}

/// Issue 32 item 5: what the kernel is told as pairs are made and broken.
@Suite struct EditPairInvalidationTests {
    /// The original's `edited.*` entry by name, as the pair is made, as its edit goes, and as
    /// its original changes (the edit's file a new number then): else `ls` shows what a path to
    /// it no longer finds, or hides what a path to it still answers from the kernel's old entry.
    @Test func theEditedEntryIsToldByName() throws {
        let catalog = try ScratchCatalog()
        let files = ["IMG_0003.JPG", "IMG_E0003.HEIC"]
        let shots = Dictionary(uniqueKeysWithValues: files.map { ($0, EditPairTests.shot) })
        try catalog.apply("L", files)
        let made = try catalog.recordShots(shots)
        let asset = try #require(catalog.node("groups/L/IMG_0003"))
        let entry = Invalidation.entry(parent: asset.inode, name: Array("edited.heic".utf8))
        #expect(made.contains(entry))
        let changed = try catalog.apply("L", files, size: 11).changes
        #expect(catalog.tree.invalidations(for: changed).contains(entry))
        #expect(try catalog.recordShots(shots).contains(entry))
        #expect(catalog.pairs(album: "L") == ["IMG_0003.JPG + IMG_E0003.HEIC"])
        let gone = try catalog.apply("L", ["IMG_0003.JPG"], size: 11).changes
        #expect(catalog.tree.invalidations(for: gone).contains(entry))
        #expect(catalog.pairs(album: "L") == ["IMG_0003.JPG"])
    }
}

/// A catalog of version 10 (content ids, no edit pairs) gains `edit_pairs` in place: its tree
/// stays, the photos named as edits are read again, and then pair.
@Suite struct EditPairUpgradeTests {
    @Test func aVersion10CatalogPairsItsEditsOnceReadAgain() throws {
        let catalog = try ScratchCatalog()
        let files = ["IMG_0003.JPG", "IMG_E0003.JPG", "IMG_0004.JPG"]
        let shots = Dictionary(uniqueKeysWithValues: files.map { ($0, EditPairTests.shot) })
        try catalog.apply("L", files)
        try catalog.recordShots(shots)
        do {
            let db = try Database(path: catalog.store.path)
            try catalog.keepVersion11Properties(db)
            try db.execute("""
                DROP TRIGGER edit_photo_changed; DROP TRIGGER edit_photo_removed; DROP TRIGGER edit_pair_broken; DROP TABLE edit_pairs;
                PRAGMA user_version = 10;
                """)
        }
        try catalog.reopen()
        #expect(catalog.store.read { $0.undatedPhotos(after: 0, limit: 10) }.map { text($0.photo.fileName) } == ["IMG_E0003.JPG"])
        #expect(catalog.pairs(album: "L") == ["IMG_0003.JPG", "IMG_0004.JPG", "IMG_E0003.JPG"])
        try catalog.recordShots(shots)
        #expect(catalog.pairs(album: "L") == ["IMG_0003.JPG + IMG_E0003.JPG", "IMG_0004.JPG"])
    }
}
