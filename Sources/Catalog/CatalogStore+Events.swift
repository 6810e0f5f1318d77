import SQLiteDatabase

/// `events/<YYYY>/<event>/`: photos clustered by `EventRule`, kept as view folders of
/// `CatalogView.events` under year folders. Each photo in events has a row in `event_photos`
/// (its local time, position, city and event, ordered by time); each event one in `events`: the
/// days and the place its name was made of. The rule links neighbours in time only, so a photo
/// placed, moved or removed re-decides the links near it (`reconcileEvents`) and nothing else.
///
/// Names are stable: an event is renamed only when its first or last day changes, and then takes
/// the place most of its photos now have (`EventRule.mainPlace`). Two events joined by a photo
/// become the earlier one (its folder, its id); an event split keeps its id for its earlier part.
/// An event is in the year of its first day; extended back over New Year, its folder moves.
extension CatalogStore {
    static let eventsSchema = """
        CREATE TABLE event_photos(photo INTEGER PRIMARY KEY, taken INTEGER NOT NULL, latitude REAL, longitude REAL, city TEXT,
            event INTEGER NOT NULL);
        CREATE INDEX event_photos_by_taken ON event_photos(taken, photo);
        -- An event's first and last photo, its cities, the part of it that moves when it splits.
        CREATE INDEX event_photos_by_event ON event_photos(event, taken, photo);
        CREATE TABLE events(folder INTEGER PRIMARY KEY, first_day INTEGER NOT NULL, last_day INTEGER NOT NULL, place TEXT);
        -- Events are the only view folders that move (to another year): the counts follow.
        CREATE TRIGGER view_folder_moved AFTER UPDATE OF parent ON view_folders WHEN old.parent != new.parent BEGIN
            UPDATE view_folders SET folders = folders + 1 WHERE id = new.parent;
            UPDATE view_folders SET folders = folders - 1 WHERE id = old.parent; END;
        """

    /// Temporary (the writer's connection only): photos in events that were removed, changed
    /// (their properties are read again) or hidden as a Live Photo's movie in this write.
    /// `eventsFollowPhotos`, at the end of every write, takes them out of their events.
    static let eventsTriggers = """
        CREATE TEMP TABLE IF NOT EXISTS events_left(photo INTEGER PRIMARY KEY);
        CREATE TEMP TRIGGER IF NOT EXISTS event_photo_removed AFTER DELETE ON main.photos BEGIN
            INSERT OR IGNORE INTO events_left SELECT photo FROM main.event_photos WHERE photo = old.id; END;
        CREATE TEMP TRIGGER IF NOT EXISTS event_photo_changed AFTER UPDATE OF version ON main.photos BEGIN
            INSERT OR IGNORE INTO events_left SELECT photo FROM main.event_photos WHERE photo = new.id; END;
        CREATE TEMP TRIGGER IF NOT EXISTS event_movie_hidden AFTER INSERT ON main.live_pairs BEGIN
            INSERT OR IGNORE INTO events_left SELECT photo FROM main.event_photos WHERE photo = new.movie; END;
        """

    /// A photo's place in the events' order: by local time, then by id.
    struct EventKey: Comparable {
        var taken: Int64
        var photo: Int64
        static func < (a: EventKey, b: EventKey) -> Bool { (a.taken, a.photo) < (b.taken, b.photo) }
    }

    /// Places photo `photo` by its stored properties: `record` calls it once it has stored them,
    /// and pairing a Live Photo for its still (which may take its movie's place). A photo leaves
    /// the events when it has no time, no properties, is a Live Photo's movie (its still shows it) or a copy.
    static func placeInEvents(ofPhoto photo: Int64, _ db: Database) throws(DatabaseError) {
        var stored: (taken: Int64, latitude: Double?, longitude: Double?, city: String?)?
        try db.query("SELECT taken, latitude, longitude, city FROM properties WHERE photo = ? AND taken IS NOT NULL AND \(represents("properties.photo"))",
                     [.integer(photo)]) { stored = ($0.integer(0), $0.isNull(1) ? nil : $0.double(1), $0.isNull(2) ? nil : $0.double(2), $0.isNull(3) ? nil : $0.text(3)) }
        guard let stored else { return try removeFromEvents(photo: photo, db) }
        try placeInEvents(photo: photo, taken: stored.taken, latitude: stored.latitude, longitude: stored.longitude, city: stored.city, db)
    }

    /// Puts photo `photo` in the event its time and position give (moving it if it was in
    /// another): the events near its old and new place are re-decided together.
    static func placeInEvents(photo: Int64, taken: Int64, latitude: Double?, longitude: Double?, city: String?,
                              _ db: Database) throws(DatabaseError) {
        var stored: (taken: Int64, latitude: Double?, longitude: Double?, event: Int64)?
        try db.query("SELECT taken, latitude, longitude, event FROM event_photos WHERE photo = ?", [.integer(photo)]) {
            stored = ($0.integer(0), $0.isNull(1) ? nil : $0.double(1), $0.isNull(2) ? nil : $0.double(2), $0.integer(3))
        }
        let values: [Database.Value] = [.integer(taken), latitude.map { .real($0) } ?? .null, longitude.map { .real($0) } ?? .null,
                                        city.map { .text($0) } ?? .null, .integer(photo)]
        if let stored, stored.taken == taken, stored.latitude == latitude, stored.longitude == longitude {
            // Where it was taken is named anew (a better gazetteer): the event's name waits for its next change.
            return try db.query("UPDATE event_photos SET city = ?4 WHERE photo = ?5", values)
        }
        var centres = [EventKey(taken: taken, photo: photo)]
        if let stored {
            try leaveEvent(photo: photo, event: stored.event, db)
            centres.append(EventKey(taken: stored.taken, photo: photo))
        }
        try db.query("INSERT OR REPLACE INTO event_photos(taken, latitude, longitude, city, photo, event) VALUES (?, ?, ?, ?, ?, 0)", values)
        try reconcileEvents(around: centres, db)
    }

    /// Takes photo `photo` out of the events (nothing if it is in none); its neighbours' links are
    /// re-decided (an event it held together splits).
    static func removeFromEvents(photo: Int64, _ db: Database) throws(DatabaseError) {
        var stored: (taken: Int64, event: Int64)?
        try db.query("SELECT taken, event FROM event_photos WHERE photo = ?", [.integer(photo)]) { stored = ($0.integer(0), $0.integer(1)) }
        guard let stored else { return }
        try db.query("DELETE FROM event_photos WHERE photo = ?", [.integer(photo)])
        try leaveEvent(photo: photo, event: stored.event, db)
        try reconcileEvents(around: [EventKey(taken: stored.taken, photo: photo)], db)
    }

    /// The photos `eventsTriggers` noted in this write, out of the events, and the notes cleared.
    static func eventsFollowPhotos(_ db: Database) throws(DatabaseError) {
        var left: [Int64] = []
        try db.query("SELECT photo FROM events_left") { left.append($0.integer(0)) }
        guard !left.isEmpty else { return }
        try db.query("DELETE FROM events_left")
        for photo in left { try removeFromEvents(photo: photo, db) }
    }

    /// Photo `photo`'s member folder in `event` goes; the event's row too if no photo is left in it.
    private static func leaveEvent(photo: Int64, event: Int64, _ db: Database) throws(DatabaseError) {
        guard event != 0 else { return }
        try removeMember(photo: photo, folder: ViewFolder(.events, id: event), db)
        var holds = false
        try db.query("SELECT 1 FROM event_photos WHERE event = ? AND photo != ? LIMIT 1", [.integer(event), .integer(photo)]) { _ in holds = true }
        if !holds { try db.query("DELETE FROM events WHERE folder = ?", [.integer(event)]) }
    }
}
