import SQLiteDatabase

/// Keeping the stored events what `EventRule` gives after photos were placed or removed at some
/// keys (`centres`): only the links near a centre can have changed, so only the photos within
/// `eventMargin` of it are read, and only the events they touch are joined, split or renamed.
extension CatalogStore {
    /// Photos read on each side of a centre: the links `EventRule.reach` around it, and the photos
    /// each of those reads.
    private static let eventMargin = 2 * EventRule.reach + 1

    private struct EventRow {
        var key: EventKey
        var latitude: Double?
        var longitude: Double?
        var event: Int64
    }

    /// The photos around each centre (one window when two are close), each window re-decided.
    /// A window's first and last rows are beyond the links it reads, unless the sequence ends there.
    static func reconcileEvents(around centres: [EventKey], _ db: Database) throws(DatabaseError) {
        let centres = centres.sorted()
        var before: [[EventRow]] = [], from: [[EventRow]] = []
        for centre in centres {
            before.append(try eventRows(before: centre, limit: eventMargin + 1, db))
            from.append(try eventRows(from: centre, limit: eventMargin + 1, db))
        }
        var windows = centres.indices.map { ([centres[$0]], before[$0], from[$0], from[$0]) }
        if centres.count == 2, from[0].count <= eventMargin || before[1].count <= eventMargin || from[0].last!.key >= before[1].first!.key {
            windows = [(centres, before[0], try eventRows(from: centres[0], before: centres[1], db) + from[1], from[1])]
        }
        for (centres, before, after, last) in windows {
            var rows = before + after
            let outsideBefore = before.count > eventMargin ? rows.removeFirst() : nil
            let outsideAfter = last.count > eventMargin ? rows.removeLast() : nil
            try reconcileEvents(rows, outsideBefore: outsideBefore, outsideAfter: outsideAfter, centres: centres, db)
        }
    }

    /// Re-decides the links of `rows` (consecutive photos; `outside…`: the photos beyond them, nil
    /// where the sequence ends), and makes the events what the links say.
    private static func reconcileEvents(_ rows: [EventRow], outsideBefore: EventRow?, outsideAfter: EventRow?, centres: [EventKey],
                                        _ db: Database) throws(DatabaseError) {
        guard !rows.isEmpty else { return }
        let photos = rows.map { EventRule.Photo(taken: $0.key.taken, latitude: $0.latitude, longitude: $0.longitude) }
        let links = EventRule.links(photos, fromStart: outsideBefore == nil, toEnd: outsideAfter == nil)
        // A link too far from every centre to read its reach is as stored.
        var runs: [Range<Int>] = [], start = 0
        for (i, link) in links.enumerated() where !(link ?? (rows[i].event != 0 && rows[i].event == rows[i + 1].event)) {
            runs.append(start..<(i + 1))
            start = i + 1
        }
        runs.append(start..<rows.count)
        let extendsBefore = outsideBefore.map { $0.event != 0 && $0.event == rows[0].event } ?? false
        let extendsAfter = outsideAfter.map { $0.event != 0 && $0.event == rows.last!.event } ?? false

        // Each run keeps the id of the earliest event among its photos not kept by an earlier
        // run (the first run, the event it continues); else it is new (a provisional id, < 0).
        var kept: Set<Int64> = [], runIDs: [Int64] = [], provisional: Int64 = 0
        for (index, run) in runs.enumerated() {
            let candidates = (index == 0 && extendsBefore ? [rows[0].event] : []) + rows[run].map(\.event).filter { $0 != 0 }
            var id: Int64
            if let old = candidates.first(where: { !kept.contains($0) }) { id = old } else {
                provisional -= 1
                id = provisional
            }
            kept.insert(id)
            runIDs.append(id)
        }
        var moves: [(photo: Int64, from: Int64, to: Int64)] = []
        for (run, id) in zip(runs, runIDs) {
            for row in rows[run] where row.event != id { moves.append((row.key.photo, row.event, id)) }
        }
        if extendsAfter, let last = rows.last, runIDs.last != last.event {
            // Split: the rest of the event after these photos goes with their run.
            try db.query("SELECT photo FROM event_photos WHERE event = ? AND (taken, photo) > (?, ?)",
                         [.integer(last.event), .integer(last.key.taken), .integer(last.key.photo)]) { moves.append(($0.integer(0), last.event, runIDs.last!)) }
        }
        // Renamed if their days changed: events that photos joined or left, and those beside a photo gone.
        var touched = Set(moves.flatMap { [$0.from, $0.to] })
        for centre in centres where !rows.contains(where: { $0.key == centre }) {
            let next = rows.firstIndex { $0.key >= centre } ?? rows.count
            for index in [next - 1, next] where rows.indices.contains(index) { touched.insert(runIDs[runs.firstIndex { $0.contains(index) }!]) }
        }

        for move in moves {
            try db.query("UPDATE event_photos SET event = ? WHERE photo = ?", [.integer(move.to), .integer(move.photo)])
            if move.from != 0 { try removeMember(photo: move.photo, folder: ViewFolder(.events, id: move.from), db) }
        }
        for gone in Set(moves.map(\.from)).subtracting(runIDs) where gone != 0 {
            try db.query("DELETE FROM events WHERE folder = ? AND NOT EXISTS (SELECT 1 FROM event_photos WHERE event = ?)", [.integer(gone), .integer(gone)])
        }
        var folders: [Int64: Int64] = [:]
        for id in runIDs where touched.contains(id) { folders[id] = try nameEvent(id, db) }
        for move in moves {
            var assetName: [UInt8] = []
            try db.query("SELECT asset_name FROM photos WHERE id = ?", [.integer(move.photo)]) { assetName = $0.blob(0) }
            try addMember(photo: move.photo, folder: ViewFolder(.events, id: folders[move.to] ?? move.to), assetName: assetName, db)
        }
    }

    /// Gives event `id` (provisional when < 0: its folder is made, and its photos given its id) the
    /// name its days say, if they are not those of its name: with the place most of its photos
    /// now have, unique in its year's folder (which it moves to). Returns its folder id.
    private static func nameEvent(_ id: Int64, _ db: Database) throws(DatabaseError) -> Int64 {
        // Its first and last photo by the index (min and max together would read every photo), and its name's days.
        var days: (first: Int64, last: Int64)?, named: (first: Int64, last: Int64)?
        try db.query("""
            SELECT (SELECT taken FROM event_photos WHERE event = ?1 ORDER BY taken LIMIT 1),
                   (SELECT taken FROM event_photos WHERE event = ?1 ORDER BY taken DESC LIMIT 1), first_day, last_day
            FROM (SELECT 1) LEFT JOIN events ON folder = ?1
            """, [.integer(id)]) { row in
            if !row.isNull(0) { days = (EventRule.day(row.integer(0)), EventRule.day(row.integer(1))) }
            if !row.isNull(2) { named = (row.integer(2), row.integer(3)) }
        }
        guard let days else { return id }
        if let named, named == days { return id }
        var cities: [(city: String, count: Int, firstTaken: Int64)] = []
        try db.query("SELECT city, count(*), min(taken) FROM event_photos WHERE event = ? AND city IS NOT NULL AND city != '' GROUP BY city",
                     [.integer(id)]) { cities.append(($0.text(0), Int($0.integer(1)), $0.integer(2))) }
        let place = EventRule.mainPlace(cities)
        let year = try folderID(view: .events, parent: 0, name: EventRule.yearName(ofDay: days.first), create: true, db)!
        var n = 1, name = EventRule.name(firstDay: days.first, lastDay: days.last, place: place)
        while let holder = try folderID(view: .events, parent: year, name: name, create: false, db), holder != id {
            n += 1
            let suffix = Array(" (\(n))".utf8)
            name = EventRule.name(firstDay: days.first, lastDay: days.last, place: place, limit: Naming.maxNameBytes - suffix.count) + suffix
        }
        var folder = id
        if id < 0 {
            folder = try folderID(view: .events, parent: year, name: name, create: true, db)!
            try db.query("UPDATE event_photos SET event = ? WHERE event = ?", [.integer(folder), .integer(id)])
        } else {
            try db.query("UPDATE view_folders SET parent = ?, name = ? WHERE id = ? AND (parent != ? OR name != ?)",
                         [.integer(year), .blob(name), .integer(id), .integer(year), .blob(name)])
        }
        try db.query("INSERT OR REPLACE INTO events(folder, first_day, last_day, place) VALUES (?, ?, ?, ?)",
                     [.integer(folder), .integer(days.first), .integer(days.last), place.map { .text($0) } ?? .null])
        return folder
    }

    /// Up to `limit` photos before `key`, in order.
    private static func eventRows(before key: EventKey, limit: Int, _ db: Database) throws(DatabaseError) -> [EventRow] {
        try eventRows("(taken, photo) < (?, ?) ORDER BY taken DESC, photo DESC LIMIT ?", [key.taken, key.photo, Int64(limit)], db).reversed()
    }

    /// Up to `limit` photos from `key` on, in order.
    private static func eventRows(from key: EventKey, limit: Int, _ db: Database) throws(DatabaseError) -> [EventRow] {
        try eventRows("(taken, photo) >= (?, ?) ORDER BY taken, photo LIMIT ?", [key.taken, key.photo, Int64(limit)], db)
    }

    /// The photos from `key` on and before `end`, in order.
    private static func eventRows(from key: EventKey, before end: EventKey, _ db: Database) throws(DatabaseError) -> [EventRow] {
        try eventRows("(taken, photo) >= (?, ?) AND (taken, photo) < (?, ?) ORDER BY taken, photo", [key.taken, key.photo, end.taken, end.photo], db)
    }

    private static func eventRows(_ condition: String, _ bindings: [Int64], _ db: Database) throws(DatabaseError) -> [EventRow] {
        var rows: [EventRow] = []
        try db.query("SELECT taken, photo, latitude, longitude, event FROM event_photos WHERE \(condition)", bindings.map { .integer($0) }) {
            rows.append(EventRow(key: EventKey(taken: $0.integer(0), photo: $0.integer(1)), latitude: $0.isNull(2) ? nil : $0.double(2),
                                 longitude: $0.isNull(3) ? nil : $0.double(3), event: $0.integer(4)))
        }
        return rows
    }
}
