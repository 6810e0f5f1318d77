import PhotoSource
import SQLiteDatabase

/// Apple Live Photos: a still (HEIC or JPEG) and a QuickTime movie in one folder that share a
/// content identifier (`Properties.liveIdentifier`) are one asset, never paired by name. The pair
/// is made when the second of the two has its properties recorded: the movie then leaves every
/// listing and lookup (`shown`), and the still's asset folder shows it as `motion.mov`. A change
/// or removal of either breaks the pair (the properties triggers); reading them again pairs anew.
/// The still shows what it lacks and the movie knows (`shareMovieProperties`).
extension CatalogStore {
    static let livePhotosSchema = """
        CREATE TABLE IF NOT EXISTS live_pairs(movie INTEGER PRIMARY KEY, still INTEGER NOT NULL UNIQUE);
        CREATE INDEX IF NOT EXISTS properties_by_live_id ON properties(live_id) WHERE live_id IS NOT NULL;
        """

    /// An SQL condition: the photo whose id is `column` is shown (not the movie of a Live Photo,
    /// nor an edit shown by its original's asset: `CatalogStore+Edits.swift`).
    static func shown(_ column: String) -> String {
        "(\(column) NOT IN (SELECT movie FROM live_pairs) AND \(column) NOT IN (SELECT edit FROM edit_pairs))"
    }

    /// The video an asset folder shows beside its still.
    public enum Motion: Sendable {
        /// A Motion Photo's MP4, a byte range of its own file.
        case embedded(Range<Int64>)
        /// A Live Photo's movie, a file of its own.
        case movie(PhotoRow)

    }

    /// A photo's motion as its stored properties tell it (`Motion` once a Live Photo's movie is read).
    public enum MotionFacts: Sendable, Equatable {
        /// Its properties are not read yet.
        case unread
        case none
        case embedded(Range<Int64>)
        /// The photo id of a Live Photo's movie.
        case pairedMovie(Int64)
    }

    static func motionFacts(_ row: NamedRow<PhotoColumn>) -> MotionFacts {
        guard row.integer(.propertiesRead) != 0 else { return .unread }
        if let movie = row.optionalInteger(.pairedMovie) { return .pairedMovie(movie) }
        if let offset = row.optionalInteger(.motionOffset) { return .embedded(offset..<(offset + row.integer(.motionLength))) }
        return .none
    }

    /// Pairs `photo`, whose properties were just recorded with Live Photo `identifier`, with the
    /// other half in its folder, if that is there and not paired with another (the triggers of
    /// `CatalogStore+AssetFiles.swift` tell what that changes), and has the still share what the
    /// movie knows. Either half read again comes here again, so the still, whose properties a
    /// reading replaces, never shows less; a broken pair has its still read again.
    func pairLivePhoto(_ photo: PhotoRow, identifier: String, _ db: Database) throws(DatabaseError) {
        let isMovie = photo.photo.format == .quickTime
        guard isMovie || photo.photo.format.mayHoldMotion else { return }
        let partnerFormats = isMovie ? "'\(SourceFormat.jpeg.rawValue)', '\(SourceFormat.heif.rawValue)'" : "'\(SourceFormat.quickTime.rawValue)'"
        let (partnerRole, ownRole) = isMovie ? ("still", "movie") : ("movie", "still")
        var partner: Int64?
        try db.query("""
            SELECT q.photo FROM properties q JOIN photos p ON p.id = q.photo
            WHERE q.live_id = ? AND p.folder = ? AND p.format IN (\(partnerFormats)) AND q.photo != ?
              AND q.photo NOT IN (SELECT \(partnerRole) FROM live_pairs WHERE \(ownRole) != ?)
            ORDER BY q.photo LIMIT 1
            """, [.text(identifier), .integer(photo.folder), .integer(photo.id), .integer(photo.id)]) { partner = $0.integer(0) }
        guard let partner else { return }
        let (movie, still) = isMovie ? (photo.id, partner) : (partner, photo.id)
        try db.query("INSERT OR IGNORE INTO live_pairs(movie, still) VALUES (?, ?)", [.integer(movie), .integer(still)])
        try shareMovieProperties(movie: movie, still: still, db)
        try Self.updateMembers(ofPhoto: still, db)
        try Self.placeInEvents(ofPhoto: still, db)
    }

    /// What a still lacks and its movie knows: a place (the still's GPS was off or stripped: it
    /// takes the movie's position and the place named from it), and the UTC offset of a date that
    /// has none (EXIF without OffsetTime), which the movie's QuickTime creation date carries. Each
    /// is marked as lent (`LentByMovie`): a reader who may not read the movie is not shown it.
    /// Nothing if `movie` and `still` are not a pair.
    private func shareMovieProperties(movie: Int64, still: Int64, _ db: Database) throws(DatabaseError) {
        let plainDate = LentByMovie.plainDateLength
        let pair = """
            FROM properties AS m
            WHERE s.photo = ? AND m.photo = ? AND EXISTS (SELECT 1 FROM live_pairs WHERE movie = m.photo AND still = s.photo)
            """
        try db.query("""
            UPDATE properties AS s SET latitude = m.latitude, longitude = m.longitude, country = m.country, region = m.region, city = m.city,
                lent_by_movie = s.lent_by_movie | \(LentByMovie.place.rawValue)
            \(pair) AND s.latitude IS NULL AND m.latitude IS NOT NULL
            """, [.integer(still), .integer(movie)])
        try db.query("""
            UPDATE properties AS s SET date = s.date || substr(m.date, \(plainDate + 1)), lent_by_movie = s.lent_by_movie | \(LentByMovie.utcOffset.rawValue)
            \(pair) AND length(s.date) = \(plainDate) AND m.date_source = \(DateSource.quickTime.rawValue) AND length(m.date) > \(plainDate)
            """, [.integer(still), .integer(movie)])
    }

    /// What a Live Photo still took from its movie (`properties.lent_by_movie`).
    public struct LentByMovie: OptionSet, Sendable, Equatable {
        public let rawValue: Int64
        public init(rawValue: Int64) { self.rawValue = rawValue }
        /// Its position and the place named from it.
        public static let place = LentByMovie(rawValue: 1)
        /// The UTC offset of its date.
        public static let utcOffset = LentByMovie(rawValue: 2)
        /// The length of a date without a UTC offset, `YYYY-MM-DDTHH:MM:SS`.
        static let plainDateLength = "YYYY-MM-DDTHH:MM:SS".count
    }
}

extension CatalogSnapshot {
    /// The motion of photo `row`, once its properties say it has one.
    public func motion(of row: CatalogStore.PhotoRow) -> CatalogStore.Motion? {
        guard row.photo.format.mayHoldMotion else { return nil }
        switch row.motionFacts {
        case .embedded(let range): return .embedded(range)
        case .pairedMovie(let movie): return photo(movie).map { .movie($0) }
        case .unread, .none: return nil
        }
    }
}
