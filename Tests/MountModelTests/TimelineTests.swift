import MountModel
import Glibc
import Posix
import Testing
@testable import Catalog
@testable import PhotoSource
import SQLiteDatabase

extension ScratchCatalog {
    /// Records properties for every photo not yet dated, each on the day `days` gives by file name.
    @discardableResult
    func date(_ days: [String: Int], source: DateSource = .exifOriginal) throws -> [Invalidation] {
        let pending = store.read { $0.undatedPhotos(after: 0, limit: 10_000) }
        let batch = pending.compactMap { row -> (photo: CatalogStore.PhotoRow, properties: CatalogStore.Properties)? in
            guard let day = days[text(row.photo.fileName)] else { return nil }
            return (row, CatalogStore.Properties(date: "\(day)", dateSource: source, day: day, width: 4, height: 3, mediaType: "image/jpeg"))
        }
        return tree.invalidations(for: try store.record(batch))
    }
}

@Suite struct TimelineTests {
    @Test func photosAppearUnderTheirDayWithUniqueStableNames() throws {
        let catalog = try ScratchCatalog()
        try catalog.apply("A", ["IMG_1.jpg", "IMG_2.jpg"])
        try catalog.apply("B", ["IMG_1.jpg", "x.jpg"])
        #expect(catalog.store.read { $0.undatedPhotos(after: 0, limit: 100) }.count == 4)
        #expect(catalog.names(.viewTop(.dates)).isEmpty)
        // Dated one by one, as the background reader would: A's IMG_1 first.
        let invalidations = try catalog.date(["IMG_1.jpg": 20240115, "IMG_2.jpg": 20240115, "x.jpg": 20231231])
        let year = try #require(catalog.node("dates/2024"))
        let day = try #require(catalog.node("dates/2024/2024-01-15"))
        #expect(invalidations.contains(.inode(Node.viewTop(.dates).inode)))
        #expect(invalidations.contains(.entry(parent: year.inode, name: Array("2024-01-15".utf8))))
        #expect(catalog.store.read { $0.undatedPhotos(after: 0, limit: 100) }.isEmpty)
        #expect(catalog.names(.viewTop(.dates)).sorted() == ["2023", "2024"], "in the order they were made")
        #expect(catalog.names(year) == ["2024-01-15"])
        #expect(catalog.names(day) == ["IMG_1", "IMG_2", "IMG_1 (2)"])
        let b1 = try #require(catalog.node("dates/2024/2024-01-15/IMG_1 (2)"))
        #expect(catalog.parent(b1) == day && catalog.parent(day) == year && catalog.parent(year) == .viewTop(.dates))
        #expect(catalog.photo(b1)?.photo.relativePath == FilePath("B/IMG_1.jpg"))
        #expect(catalog.names(b1) == ["thumbnail.jpg", "fullscreen.jpg", "original.jpg"])
        // The files are the asset folder's own.
        #expect(catalog.node("dates/2024/2024-01-15/IMG_1 (2)/original.jpg") == catalog.node("groups/B/IMG_1/original.jpg"))
        #expect(catalog.node(forInode: b1.inode) == b1)
        #expect(catalog.node("dates/2024/2024-1-15") == nil && catalog.node("dates/24") == nil)
        // Link counts from the rows: 2 + subfolders + members.
        guard case .viewFolder(let dayID) = day, case .viewFolder(let yearID) = year else { Issue.record("\(day) \(year)"); return }
        #expect(catalog.viewFolder(dayID).map { ($0.folders, $0.members) } ?? (-1, -1) == (0, 3))
        #expect(catalog.viewFolder(yearID).map { ($0.folders, $0.members) } ?? (-1, -1) == (1, 0))

        // A's IMG_1 goes: B's keeps its name.
        let gone = try catalog.invalidations(catalog.apply("A", ["IMG_2.jpg"]))
        #expect(gone.contains(.entry(parent: day.inode, name: Array("IMG_1".utf8))) && gone.contains(.inode(day.inode)))
        #expect(catalog.names(day) == ["IMG_2", "IMG_1 (2)"])
        // Across a reopen, nothing is read again.
        try catalog.reopen()
        #expect(catalog.store.read { $0.undatedPhotos(after: 0, limit: 100) }.isEmpty)
        #expect(catalog.names(day) == ["IMG_2", "IMG_1 (2)"])
        let counts = catalog.store.read { $0.dateCounts() }
        #expect(counts[.exifOriginal] == 3 && counts[.modificationTime] == nil, "three dated by EXIF DateTimeOriginal, none by mtime")
    }

    /// Thousands of IMG_0001s on one day (many cameras, many imports): each gets the next free
    /// ` (N)` at once, not after trying every N taken before (which made dating a million photos crawl).
    /// Listed by pages, the cookies continue where the page ended.
    @Test func manyEqualNamesOnOneDayAreNumberedInTurnAndListedByPages() throws {
        let catalog = try ScratchCatalog()
        for folder in 0..<300 { try catalog.apply(String(format: "F%03d", folder), ["IMG_0001.jpg"]) }
        try catalog.date(["IMG_0001.jpg": 20240115])
        let day = try #require(catalog.node("dates/2024/2024-01-15"))
        let names = catalog.names(day)
        #expect(names.count == 300 && Set(names).count == 300)
        #expect(names.first == "IMG_0001" && names.last == "IMG_0001 (300)")
        var paged: [String] = [], cookie: Int64 = 0
        while let page = catalog.store.read({ catalog.tree.entries(of: day, after: cookie, limit: 64, in: $0) }), let last = page.last {
            paged += page.map { text($0.name) }
            cookie = last.cookie
        }
        #expect(paged == names)
    }

    @Test func aChangedPhotoIsReadAgainAndMovesToItsNewDay() throws {
        let catalog = try ScratchCatalog()
        try catalog.apply("A", ["a.jpg", "b.jpg"])
        try catalog.date(["a.jpg": 20200101, "b.jpg": 20200101])
        let folder = try #require(catalog.store.read { $0.folder(at: FilePath("A")) })
        let a = try #require(catalog.store.read { $0.photo(inFolder: folder.id, named: Array("a".utf8)) })
        let oldDay = try #require(catalog.node("dates/2020/2020-01-01"))
        // New versions (another size): their properties are dropped and they are queued again.
        let update = try catalog.apply("A", ["a.jpg", "b.jpg"], size: 99)
        #expect(catalog.invalidations(update).contains(.entry(parent: Node.viewTop(.dates).inode, name: Array("2020".utf8))))
        #expect(catalog.store.read { $0.properties(ofPhoto: a.id) } == nil)
        #expect(catalog.store.read { $0.undatedPhotos(after: 0, limit: 10) }.count == 2)
        #expect(catalog.names(.viewTop(.dates)).isEmpty)
        #expect(catalog.node(forInode: oldDay.inode) == nil)
        // A read of the old version that finishes now is not stored against the new one.
        try catalog.store.record([(a, CatalogStore.Properties(date: "old", dateSource: .exifOriginal, day: 20200101))])
        #expect(catalog.store.read { $0.properties(ofPhoto: a.id) } == nil)
        let invalidations = try catalog.date(["a.jpg": 20210704, "b.jpg": 20200101])
        let newDay = try #require(catalog.node("dates/2021/2021-07-04"))
        #expect(invalidations.contains(.entry(parent: newDay.inode, name: Array("a".utf8))))
        #expect(catalog.names(.viewTop(.dates)).sorted() == ["2020", "2021"])
        #expect(catalog.names(newDay) == ["a"])
        let member = try #require(catalog.node("dates/2021/2021-07-04/a"))
        #expect(catalog.node(forInode: member.inode) == member)
        #expect(catalog.parent(member) == newDay)
        // Read again with another date, at the same version: it moves, and the day it left goes.
        let moved = try catalog.tree.invalidations(for: catalog.store.record([(try #require(catalog.photo(member)),
                                                                                CatalogStore.Properties(date: "d", dateSource: .exifOriginal, day: 20210705))]))
        #expect(moved.contains(.entry(parent: try #require(catalog.node("dates/2021")).inode, name: Array("2021-07-04".utf8))))
        #expect(catalog.names(try #require(catalog.node("dates/2021"))) == ["2021-07-05"])
        #expect(catalog.node(forInode: member.inode) == nil && catalog.node(forInode: newDay.inode) == nil)
        // A folder removed takes its photos out of the timeline.
        let gone = catalog.tree.invalidations(for: try catalog.store.removeFolder(FilePath("A")))
        #expect(gone.contains(.entry(parent: Node.viewTop(.dates).inode, name: Array("2021".utf8))))
        #expect(catalog.names(.viewTop(.dates)).isEmpty)
    }
}

/// Properties are read in the background while a scan writes batches on the same connection:
/// what is recorded then joins the open batch (a savepoint) instead of failing to begin a
/// transaction of its own (which lost the dates read during every verification).
struct PropertiesBesideABatchTests {
    @Test func propertiesRecordedWhileABatchIsOpenAreKept() throws {
        let catalog = try ScratchCatalog()
        try catalog.apply("A", ["IMG_1.jpg"])
        var recorded: Result<[Invalidation], Error>?
        try catalog.store.batch {
            _ = try? catalog.apply("B", ["IMG_2.jpg"])
            recorded = Result { try catalog.date(["IMG_1.jpg": 20240115, "IMG_2.jpg": 20240116]) }
        }
        // The reader saw only what was committed before the batch: IMG_1 is dated, inside it.
        #expect((try recorded?.get())?.isEmpty == false)
        #expect(catalog.store.read { $0.undatedPhotos(after: 0, limit: 10) }.map { text($0.photo.fileName) } == ["IMG_2.jpg"])
        #expect(catalog.names(catalog.node("dates/2024") ?? .root) == ["2024-01-15"])
    }
}

/// A catalog of an earlier version (new photos queued by a trigger; no sidecar times) is brought forward in place:
/// nothing is rescanned, and a photo added afterwards is queued once, by the insert.
struct CatalogUpgradeTests {
    @Test func aVersion4CatalogKeepsItsRowsAndLosesItsTrigger() throws {
        let catalog = try ScratchCatalog()
        try catalog.apply("", [], subfolders: ["A"])
        try catalog.apply("A", ["IMG_1.jpg"])
        let before = try #require(catalog.node("groups/A/IMG_1"))
        do {
            let db = try Database(path: catalog.store.path)
            try db.execute("""
                CREATE TRIGGER photo_added AFTER INSERT ON photos BEGIN INSERT OR IGNORE INTO undated VALUES (new.id); END;
                ALTER TABLE properties DROP COLUMN duration; ALTER TABLE properties DROP COLUMN codec;
                PRAGMA user_version = 4;
                """)
        }
        try catalog.reopen()
        #expect(catalog.node("groups/A/IMG_1") == before)
        let db = try Database(path: catalog.store.path)
        var version: Int64 = 0, triggers: Int64 = -1
        try db.query("PRAGMA user_version") { version = $0.integer(0) }
        try db.query("SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = 'photo_added'") { triggers = $0.integer(0) }
        #expect(version == Int64(CatalogStore.schemaVersion) && triggers == 0)
        try catalog.apply("A", ["IMG_1.jpg", "IMG_2.jpg"])
        let undated = catalog.store.read { $0.undatedPhotos(after: 0, limit: 10) }
        #expect(undated.count == 2)
        // The properties are made anew (version 9): a video's duration and codec are kept.
        try catalog.store.record([(undated[0], CatalogStore.Properties(date: "d", dateSource: .quickTime, day: 20200101, duration: 2.5, codec: "hevc"))])
        #expect(catalog.store.read { $0.properties(ofPhoto: undated[0].id) }.map { ($0.duration, $0.codec) } ?? (nil, nil) == (2.5, "hevc"))
    }
}
