import PhotoSource
import Posix
import SQLiteDatabase

/// The timeline made of photos' dates: the years and days that hold photos, each photo's day and
/// its name there, and what changes when a photo's date does.
extension CatalogStore {
    /// Photo `id`'s place in the timeline (before it changes or goes).
    static func timelineChanges(ofPhoto id: Int64, _ db: Database) throws(DatabaseError) -> [CatalogChange] {
        var result: [CatalogChange] = []
        try db.query("SELECT day, dated_name FROM properties WHERE photo = ?", [.integer(id)]) {
            result.append(.dated(day: Int($0.integer(0)), name: $0.blob(1), photo: id))
        }
        return result
    }

    /// The timeline places of every photo of folder `id` (before the folder goes).
    static func timelineChanges(inFolder id: Int64, _ db: Database) throws(DatabaseError) -> [CatalogChange] {
        var result: [CatalogChange] = []
        try db.query("SELECT q.photo, q.day, q.dated_name FROM photos p JOIN properties q ON q.photo = p.id WHERE p.folder = ?", [.integer(id)]) {
            result.append(.dated(day: Int($0.integer(1)), name: $0.blob(2), photo: $0.integer(0)))
        }
        return result
    }
}

extension CatalogSnapshot {
    /// Years with photos after `after`, in order (one index probe per year). A Live Photo's
    /// movie is shown by its still, on the still's day: a day or year it alone holds is none.
    public func years(after: Int, limit: Int) -> [Int] {
        read([]) { db throws(DatabaseError) in
            var result: [Int] = [], from = (after + 1) * 10000
            while result.count < limit {
                var next: Int?
                try db.query("SELECT day FROM properties WHERE day >= ? AND \(CatalogStore.shown("photo")) ORDER BY day LIMIT 1", [.integer(Int64(from))]) { next = Int($0.integer(0)) }
                guard let next else { break }
                result.append(next / 10000)
                from = (next / 10000 + 1) * 10000
            }
            return result
        }
    }

    /// Days of `year` with photos after day `after`, in order.
    public func days(inYear year: Int, after: Int, limit: Int) -> [Int] {
        read([]) { db throws(DatabaseError) in
            var result: [Int] = [], from = max(after + 1, year * 10000)
            while result.count < limit {
                var next: Int?
                try db.query("SELECT day FROM properties WHERE day >= ? AND day < ? AND \(CatalogStore.shown("photo")) ORDER BY day LIMIT 1",
                             [.integer(Int64(from)), .integer(Int64((year + 1) * 10000))]) { next = Int($0.integer(0)) }
                guard let next else { break }
                result.append(next)
                from = next + 1
            }
            return result
        }
    }

    /// Photos of day `day` after photo id `after`, in id order, with their names there.
    public func datedPhotos(onDay day: Int, after: Int64, limit: Int) -> [(id: Int64, name: [UInt8])] {
        read([]) { db throws(DatabaseError) in
            var result: [(id: Int64, name: [UInt8])] = []
            try db.query("SELECT photo, dated_name FROM properties WHERE day = ? AND photo > ? AND \(CatalogStore.shown("photo")) ORDER BY photo LIMIT ?",
                         [.integer(Int64(day)), .integer(after), .integer(Int64(limit))]) { result.append(($0.integer(0), $0.blob(1))) }
            return result
        }
    }

    /// The photo called `name` on day `day`.
    public func datedPhoto(onDay day: Int, named name: [UInt8]) -> Int64? {
        read(nil) { db throws(DatabaseError) in
            var result: Int64?
            try db.query("SELECT photo FROM properties WHERE day = ? AND dated_name = ? AND \(CatalogStore.shown("photo"))",
                         [.integer(Int64(day)), .blob(name)]) { result = $0.integer(0) }
            return result
        }
    }

    /// How many photos day `day` holds.
    public func photoCount(onDay day: Int) -> Int {
        read(0) { db throws(DatabaseError) in
            var count = 0
            try db.query("SELECT count(*) FROM properties WHERE day = ? AND \(CatalogStore.shown("photo"))", [.integer(Int64(day))]) { count = Int($0.integer(0)) }
            return count
        }
    }

    /// How many days of year `year` hold photos.
    public func dayCount(inYear year: Int) -> Int { days(inYear: year, after: 0, limit: 400).count }

    /// The day photo `id` is shown under, if its date is known.
    public func day(ofPhoto id: Int64) -> Int? {
        read(nil) { db throws(DatabaseError) in
            var result: Int?
            try db.query("SELECT day FROM properties WHERE photo = ?", [.integer(id)]) { result = Int($0.integer(0)) }
            return result
        }
    }
}
