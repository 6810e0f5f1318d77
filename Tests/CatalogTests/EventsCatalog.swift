import Glibc
import PhotoSource
import Posix
import SQLiteDatabase
import Testing
@testable import Catalog

/// A scratch catalog whose photos are placed in events directly (as `record` places them) and
/// removed as a scan removes them (their rows deleted). `events()` reads what events/ shows and
/// checks it against the rule applied afresh to every photo.
final class EventsCatalog {
    let store: CatalogStore
    let folder: FilePath

    init() throws { (store, folder) = try ReaderPoolTests.scratchCatalog() }
    deinit { _ = system("rm -rf '\(folder)'") }

    struct Event: Equatable, CustomStringConvertible {
        var id: Int64
        var year: String
        var name: String
        var photos: [Int64]
        var description: String { "\(id) \(year)/\(name) \(photos)" }
    }

    /// Photo `photo`'s row, `IMG_<photo>` in folder 1 (SOURCE itself), unless it has one.
    func add(_ photo: Int64, format: SourceFormat = .jpeg, _ db: Database) throws(DatabaseError) {
        let name = Database.Value.blob(Array("IMG_\(photo)".utf8))
        try db.query("INSERT OR IGNORE INTO folders(id, relpath, uid, gid, permissions, mtime) VALUES (1, x'', 0, 0, 365, 0)")
        try db.query("""
            INSERT OR IGNORE INTO photos(id, folder, file_name, asset_name, inode, size, mtime, ctime, uid, gid, permissions, format)
            VALUES (?, 1, ?, ?, 0, 0, 0, 0, 0, 0, 0, ?)
            """, [.integer(photo), name, name, .text(format.rawValue)])
    }

    @discardableResult
    func place(_ photo: Int64, _ taken: Int64, at position: (Double, Double)? = nil, city: String? = nil) throws -> [CatalogChange] {
        try store.change { db throws(DatabaseError) in
            try add(photo, db)
            try CatalogStore.placeInEvents(photo: photo, taken: taken, latitude: position?.0, longitude: position?.1, city: city, db)
            return try store.assetFolderChanges(db)
        }
    }

    @discardableResult
    func remove(_ photo: Int64) throws -> [CatalogChange] {
        try store.change { db throws(DatabaseError) in
            try db.query("DELETE FROM photos WHERE id = ?", [.integer(photo)])
            return try store.assetFolderChanges(db)
        }
    }

    /// The events shown, in time order, each with its photos in time order. Checks that they are
    /// what the rule gives all the photos afresh, that each is named by its days and stored place
    /// in the year of its first day, and that every count and member is as the tables say.
    func events(sourceLocation: SourceLocation = #_sourceLocation) throws -> [Event] {
        try store.change { db throws(DatabaseError) in
            var photos: [(photo: Int64, rule: EventRule.Photo, event: Int64)] = []
            try db.query("SELECT photo, taken, latitude, longitude, event FROM event_photos ORDER BY taken, photo") {
                photos.append(($0.integer(0), EventRule.Photo(taken: $0.integer(1), latitude: $0.isNull(2) ? nil : $0.double(2),
                                                             longitude: $0.isNull(3) ? nil : $0.double(3)), $0.integer(4)))
            }
            var result: [Event] = []
            for run in EventRule.events(photos.map(\.rule)) {
                let id = photos[run.first!].event
                #expect(photos[run].allSatisfy { $0.event == id }, "an event is not what the rule gives", sourceLocation: sourceLocation)
                var stored: (year: String, name: String, first: Int64, last: Int64, place: String?)?
                try db.query("""
                    SELECT y.name, f.name, e.first_day, e.last_day, e.place FROM events e JOIN view_folders f ON f.id = e.folder
                    JOIN view_folders y ON y.id = f.parent AND y.parent = 0 AND y.view = 1 WHERE e.folder = ? AND f.view = 1
                    """, [.integer(id)]) { stored = (text($0.blob(0)), text($0.blob(1)), $0.integer(2), $0.integer(3), $0.isNull(4) ? nil : $0.text(4)) }
                guard let stored else {
                    Issue.record("event \(id) has no folder", sourceLocation: sourceLocation)
                    continue
                }
                let days = (EventRule.day(photos[run.first!].rule.taken), EventRule.day(photos[run.last!].rule.taken))
                #expect((stored.first, stored.last) == days, sourceLocation: sourceLocation)
                #expect(stored.year == text(EventRule.yearName(ofDay: days.0)), sourceLocation: sourceLocation)
                let base = text(EventRule.name(firstDay: days.0, lastDay: days.1, place: stored.place))
                #expect(stored.name == base || (stored.name.hasPrefix(base + " (") && stored.name.hasSuffix(")")), sourceLocation: sourceLocation)
                var members: [Int64: String] = [:]
                try db.query("SELECT photo, name FROM view_members WHERE folder = ?", [.integer(id)]) { members[$0.integer(0)] = text($0.blob(1)) }
                #expect(Set(members.keys) == Set(photos[run].map(\.photo)), sourceLocation: sourceLocation)
                result.append(Event(id: id, year: stored.year, name: stored.name, photos: photos[run].map(\.photo)))
            }
            var counts: (folders: Int, events: Int, badCounts: Int) = (0, 0, 0)
            try db.query("SELECT count(*) FROM view_folders WHERE view = 1 AND parent != 0") { counts.folders = Int($0.integer(0)) }
            try db.query("SELECT count(*) FROM events") { counts.events = Int($0.integer(0)) }
            try db.query("""
                SELECT count(*) FROM view_folders f WHERE view = 1 AND (folders != (SELECT count(*) FROM view_folders c WHERE c.parent = f.id)
                    OR members != (SELECT count(*) FROM view_members m WHERE m.folder = f.id) OR folders + members = 0)
                """) { counts.badCounts = Int($0.integer(0)) }
            #expect(counts.folders == result.count && counts.events == result.count, sourceLocation: sourceLocation)
            #expect(counts.badCounts == 0, "a view folder's counts are not its rows", sourceLocation: sourceLocation)
            return result
        }
    }
}
