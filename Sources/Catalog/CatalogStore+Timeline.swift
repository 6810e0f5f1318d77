import PhotoSource
import Posix
import SQLiteDatabase

/// The timeline made of photos' dates: `dates/<YYYY>/<YYYY-MM-DD>/<asset>/` with the asset
/// folder's files, its folders' names, and what the kernel must forget when a photo's date changes.
extension CatalogStore {
    /// What the kernel may hold about a photo's place in the timeline (its entry, its day's and
    /// year's listings, and the day and year themselves, which may appear or go with it).
    static func timelineInvalidations(day: Int, name: [UInt8], photo: Int64) -> [Invalidation] {
        let year = day / 10000
        return [.entry(parent: Node.day(day).inode, name: name), .inode(Node.day(day).inode),
                .entry(parent: Node.year(year).inode, name: dayName(day)), .inode(Node.year(year).inode),
                .entry(parent: Node.dates.inode, name: yearName(year)), .inode(Node.dates.inode),
                .inode(Node.datedAsset(photo).inode)]
    }

    /// The timeline places of photo `id` (before it changes or goes).
    static func timelineInvalidations(ofPhoto id: Int64, _ db: Database) throws(DatabaseError) -> [Invalidation] {
        var result: [Invalidation] = []
        try db.query("SELECT day, dated_name FROM properties WHERE photo = ?", [.integer(id)]) {
            result += timelineInvalidations(day: Int($0.integer(0)), name: $0.blob(1), photo: id)
        }
        return result
    }

    /// The timeline places of every photo of folder `id` (before the folder goes).
    static func timelineInvalidations(inFolder id: Int64, _ db: Database) throws(DatabaseError) -> [Invalidation] {
        var result: Set<Invalidation> = []
        try db.query("SELECT q.photo, q.day, q.dated_name FROM photos p JOIN properties q ON q.photo = p.id WHERE p.folder = ?", [.integer(id)]) {
            result.formUnion(timelineInvalidations(day: Int($0.integer(1)), name: $0.blob(2), photo: $0.integer(0)))
        }
        return Array(result)
    }

    // MARK: The timeline's folders

    /// `2024`.
    public static func yearName(_ year: Int) -> [UInt8] { Array(pad(year, 4).utf8) }
    /// `2024-01-15` for 20240115.
    public static func dayName(_ day: Int) -> [UInt8] { Array((pad(day / 10000, 4) + "-" + pad(day / 100 % 100, 2) + "-" + pad(day % 100, 2)).utf8) }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    /// The year a name of `dates/` stands for (exactly as `yearName` writes it).
    static func year(named name: [UInt8]) -> Int? {
        guard name.count == 4, let year = Int(String(decoding: name, as: UTF8.self)), yearName(year) == name else { return nil }
        return year
    }

    /// The day a name in year `year`'s folder stands for.
    static func day(named name: [UInt8], inYear year: Int) -> Int? {
        guard name.count == 10, name.starts(with: yearName(year)) else { return nil }
        let digits = name.filter { $0 != 0x2D }
        guard let day = Int(String(decoding: digits, as: UTF8.self)), dayName(day) == name else { return nil }
        return day
    }

    /// Years with photos after `after`, in order (one index probe per year).
    func years(after: Int, limit: Int) -> [Int] {
        read([]) { db throws(DatabaseError) in
            var result: [Int] = [], from = (after + 1) * 10000
            while result.count < limit {
                var next: Int?
                try db.query("SELECT day FROM properties WHERE day >= ? ORDER BY day LIMIT 1", [.integer(Int64(from))]) { next = Int($0.integer(0)) }
                guard let next else { break }
                result.append(next / 10000)
                from = (next / 10000 + 1) * 10000
            }
            return result
        }
    }

    /// Days of `year` with photos after day `after`, in order.
    func days(inYear year: Int, after: Int, limit: Int) -> [Int] {
        read([]) { db throws(DatabaseError) in
            var result: [Int] = [], from = max(after + 1, year * 10000)
            while result.count < limit {
                var next: Int?
                try db.query("SELECT day FROM properties WHERE day >= ? AND day < ? ORDER BY day LIMIT 1",
                             [.integer(Int64(from)), .integer(Int64((year + 1) * 10000))]) { next = Int($0.integer(0)) }
                guard let next else { break }
                result.append(next)
                from = next + 1
            }
            return result
        }
    }

    /// Photos of day `day` after photo id `after`, in id order, with their names there.
    func datedPhotos(onDay day: Int, after: Int64, limit: Int) -> [(id: Int64, name: [UInt8])] {
        read([]) { db throws(DatabaseError) in
            var result: [(id: Int64, name: [UInt8])] = []
            try db.query("SELECT photo, dated_name FROM properties WHERE day = ? AND photo > ? AND \(Self.shown("photo")) ORDER BY photo LIMIT ?",
                         [.integer(Int64(day)), .integer(after), .integer(Int64(limit))]) { result.append(($0.integer(0), $0.blob(1))) }
            return result
        }
    }

    /// The photo called `name` on day `day`.
    func datedPhoto(onDay day: Int, named name: [UInt8]) -> Int64? {
        read(nil) { db throws(DatabaseError) in
            var result: Int64?
            try db.query("SELECT photo FROM properties WHERE day = ? AND dated_name = ? AND \(Self.shown("photo"))",
                         [.integer(Int64(day)), .blob(name)]) { result = $0.integer(0) }
            return result
        }
    }

    /// How many photos day `day` holds.
    public func photoCount(onDay day: Int) -> Int {
        read(0) { db throws(DatabaseError) in
            var count = 0
            try db.query("SELECT count(*) FROM properties WHERE day = ? AND \(Self.shown("photo"))", [.integer(Int64(day))]) { count = Int($0.integer(0)) }
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
