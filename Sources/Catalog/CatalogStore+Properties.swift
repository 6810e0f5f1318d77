import Places
import PhotoSource
import Posix
import SQLiteDatabase

/// What photos say about themselves (date taken, size, type, camera, place), read in the
/// background or on first request and kept here (the timeline made of their dates is in
/// views made of them in `CatalogStore+Membership.swift`).
///
/// Rows follow the photo's version: triggers drop a photo's properties when a folder's apply
/// gives it a new version (or removes it) and queue it in `undated` to be read again, so the
/// synchronizer's code never has to know about them. A new photo is queued by the insert itself
/// (`applyPhotos`), not by a trigger: a trigger makes every insert of a scan a statement with a
/// journal of its own, which was a quarter of a first scan's writing. `record` writes only for the version that
/// was read, so a read that raced with a change is dropped, never stored against the new version.
extension CatalogStore {
    static let propertiesSchema = """
        CREATE TABLE properties(
            photo INTEGER PRIMARY KEY,
            version INTEGER NOT NULL,
            date TEXT NOT NULL, date_source INTEGER NOT NULL,
            day INTEGER NOT NULL,
            width INTEGER, height INTEGER, media_type TEXT, camera BLOB, latitude REAL, longitude REAL,
            duration REAL, codec TEXT, motion_offset INTEGER, motion_length INTEGER, live_id TEXT,
            keywords TEXT, people TEXT, rating INTEGER, favorite INTEGER NOT NULL DEFAULT 0,
            country TEXT, region TEXT, city TEXT, taken INTEGER,
            content_id BLOB, lent_by_movie INTEGER NOT NULL DEFAULT 0, rendition_digest BLOB);
        \(contentIDIndex)
        \(renditionDigestIndex)
        CREATE TABLE undated(photo INTEGER PRIMARY KEY);
        \(livePhotosSchema)
        \(propertiesTriggers)
        """

    /// A photo changed or gone loses its properties, its Live Photo pair and its places in the
    /// views; a changed one is read again.
    static let propertiesTriggers = """
        CREATE TRIGGER photo_changed AFTER UPDATE OF version ON photos BEGIN
            DELETE FROM properties WHERE photo = new.id; INSERT OR IGNORE INTO undated VALUES (new.id);
            DELETE FROM live_pairs WHERE movie = new.id OR still = new.id; DELETE FROM view_members WHERE photo = new.id; END;
        CREATE TRIGGER photo_removed AFTER DELETE ON photos BEGIN
            DELETE FROM properties WHERE photo = old.id; DELETE FROM undated WHERE photo = old.id;
            DELETE FROM live_pairs WHERE movie = old.id OR still = old.id; DELETE FROM view_members WHERE photo = old.id; END;
        """


    /// A photo's properties as stored (the catalog knows nothing of EXIF: AssetFS fills these in).
    public struct Properties: Sendable, Equatable {
        /// ISO 8601, with the UTC offset when known.
        public var date: String
        public var dateSource: DateSource
        /// The local day taken, YYYYMMDD.
        public var day: Int
        public var width: Int?
        public var height: Int?
        public var mediaType: String?
        public var camera: [UInt8]?
        /// Where it was taken, in degrees (both or neither; never 0,0: no GPS fix).
        public var latitude: Double?
        public var longitude: Double?
        /// A video's length in seconds, and its codec.
        public var duration: Double?
        public var codec: String?
        /// A Motion Photo's embedded video: its byte range in the photo's file.
        public var motion: Range<Int64>?
        /// The content identifier that pairs a Live Photo's still and movie.
        public var liveIdentifier: String?
        /// Keywords, each a path from the top of its hierarchy (`["Travel", "Norway"]`; a flat
        /// keyword is a path of one): `tags/Travel/Norway/`.
        public var keywords: [[String]] = []
        /// The names of the people shown: `people/<name>/`.
        public var people: [String] = []
        /// Stars, 0-5 as `xmp:Rating` has them (-1: rejected); 4 and up is a favorite.
        public var rating: Int?
        /// Marked a favorite where no rating says so (Takeout's `favorited`).
        public var favorite = false
        /// Where it was taken, named: `places/<country>/<region>/<city>/`.
        public var place: Place?
        /// When it was taken, in local seconds since 1970 (its local time read as UTC), for the
        /// events' clustering.
        public var taken: Int64?
        /// The id of its picture's data (`ContentID`): `ids/` and `assetfs locate` find it by it.
        public var contentID: ContentID?
        /// A Live Photo still's movie, once paired (read only: `record` pairs).
        public internal(set) var pairedMovie: Int64?
        /// What a Live Photo still took from its movie (read only: `shareMovieProperties` lends).
        public internal(set) var lentByMovie: LentByMovie = []

        public init(date: String, dateSource: DateSource, day: Int, width: Int? = nil, height: Int? = nil, mediaType: String? = nil,
                    camera: [UInt8]? = nil, latitude: Double? = nil, longitude: Double? = nil, duration: Double? = nil, codec: String? = nil,
                    motion: Range<Int64>? = nil, liveIdentifier: String? = nil) {
            (self.date, self.dateSource, self.day, self.width, self.height) = (date, dateSource, day, width, height)
            (self.mediaType, self.camera, self.latitude, self.longitude) = (mediaType, camera, latitude, longitude)
            (self.duration, self.codec) = (duration, codec)
            (self.motion, self.liveIdentifier) = (motion, liveIdentifier)
        }

        /// These properties without what a Live Photo's movie lent them: what a reader who may
        /// not read the movie may know of its still.
        public var withoutWhatItsMovieLent: Properties {
            var own = self
            if lentByMovie.contains(.place) { (own.latitude, own.longitude, own.place) = (nil, nil, nil) }
            if lentByMovie.contains(.utcOffset) { own.date = String(date.prefix(LentByMovie.plainDateLength)) }
            own.lentByMovie = []
            return own
        }
    }

    /// Queues every photo's properties to be read again unless they were read by `reader`, a
    /// version of the readers (a newer one may find more in the same files: EXIF in a HEIC that
    /// an older one dated by its mtime). What is stored stays shown until it is read again.
    public func readPropertiesAgain(unlessReadBy reader: Int) throws(DatabaseError) {
        try change { db throws(DatabaseError) in
            var stored: Int64?
            try db.query("SELECT value FROM meta WHERE key = 'properties_reader'") { stored = $0.integer(0) }
            if stored != Int64(reader) {
                try db.execute("INSERT OR IGNORE INTO undated SELECT photo FROM properties")
                try db.query("INSERT OR REPLACE INTO meta(key, value) VALUES ('properties_reader', ?)", [.integer(Int64(reader))])
            }
        }
    }

    /// Stores what was read of each photo, for the version it was read at (a photo changed or
    /// removed since is passed over), and makes its members in the views what they say
    /// (`updateMembers`). Returns what changed.
    @discardableResult
    public func record(_ batch: [(photo: PhotoRow, properties: Properties)]) throws(DatabaseError) -> [CatalogChange] {
        guard !batch.isEmpty else { return [] }
        return try change { db throws(DatabaseError) in
            for (photo, properties) in batch {
                try record(photo, properties, db)
            }
            return try assetFolderChanges(db)
        }
    }

    private func record(_ photo: PhotoRow, _ properties: Properties, _ db: Database) throws(DatabaseError) {
        var current: (version: Int64, assetName: [UInt8])?
        try db.query("SELECT version, asset_name FROM photos WHERE id = ?", [.integer(photo.id)]) { current = ($0.integer(0), $0.blob(1)) }
        guard let current, current.version == photo.version else { return }
        let columns = PropertiesColumn.stored
        try db.query("""
            INSERT OR REPLACE INTO properties(photo, version, \(columns.map(\.expression).joined(separator: ", ")))
            VALUES (?, ?\(String(repeating: ", ?", count: columns.count)))
            """, [.integer(photo.id), .integer(photo.version)] + columns.map { $0.value(properties) })
        try db.query("DELETE FROM undated WHERE photo = ?", [.integer(photo.id)])
        var hidden = false
        try db.query("SELECT 1 FROM photos WHERE id = ? AND NOT \(Self.shown("id"))", [.integer(photo.id)]) { _ in hidden = true }
        try Self.updateMembers(photo: photo.id, assetName: current.assetName,
                               paths: hidden ? [] : ViewPath.of(properties, isVideo: photo.photo.format.isVideo), db)
        if let identifier = properties.liveIdentifier { try pairLivePhoto(photo, identifier: identifier, db) }
        try pairEdit(photo, db)
        try Self.placeInEvents(ofPhoto: photo.id, db)
    }
}

extension CatalogSnapshot {
    /// The stored properties of photo `id`, if they have been read for its current version.
    public func properties(ofPhoto id: Int64) -> CatalogStore.Properties? {
        read(nil) { db throws(DatabaseError) in
            var result: CatalogStore.Properties?
            try db.query("""
                SELECT \(PropertiesColumn.selection) FROM properties WHERE photo = ?
                """, [.integer(id)]) { result = PropertiesColumn.properties(NamedRow($0)) }
            return result
        }
    }

    /// Photos whose properties are still to be read, after photo id `after`, in id order.
    public func undatedPhotos(after: Int64, limit: Int) -> [CatalogStore.PhotoRow] {
        read([]) { db throws(DatabaseError) in
            var result: [CatalogStore.PhotoRow] = []
            try db.query("""
                SELECT \(CatalogStore.photoColumns) FROM undated u JOIN photos p ON p.id = u.photo JOIN folders f ON f.id = p.folder
                LEFT JOIN properties q ON q.photo = p.id
                WHERE u.photo > ? ORDER BY u.photo LIMIT ?
                """, [.integer(after), .integer(Int64(limit))]) { result.append(CatalogStore.photo($0)) }
            return result
        }
    }

    /// How many photos have a date of each source.
    public func dateCounts() -> [DateSource: Int] {
        read([:]) { db throws(DatabaseError) in
            var result: [DateSource: Int] = [:]
            try db.query("SELECT date_source, count(*) FROM properties GROUP BY date_source") { row in
                if let source = DateSource(rawValue: Int(row.integer(0))) { result[source] = Int(row.integer(1)) }
            }
            return result
        }
    }
}
