import PhotoSource
import SQLiteDatabase

/// Apple Live Photos: a still (HEIC or JPEG) and a QuickTime movie in one folder that share a
/// content identifier (`Properties.liveIdentifier`) are one asset, never paired by name. The pair
/// is made when the second of the two has its properties recorded: the movie then leaves every
/// listing and lookup (`shown`), and the still's asset folder shows it as `motion.mov`. A change
/// or removal of either breaks the pair (the properties triggers); reading them again pairs anew.
extension CatalogStore {
    static let livePhotosSchema = """
        CREATE TABLE IF NOT EXISTS live_pairs(movie INTEGER PRIMARY KEY, still INTEGER NOT NULL UNIQUE);
        CREATE INDEX IF NOT EXISTS properties_by_live_id ON properties(live_id) WHERE live_id IS NOT NULL;
        """

    /// An SQL condition: the photo whose id is `column` is shown (not the movie of a Live Photo).
    static func shown(_ column: String) -> String { "\(column) NOT IN (SELECT movie FROM live_pairs)" }

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

    /// Columns 14 to 17 of `photoColumns`.
    static func motionFacts(_ row: Database.Row) -> MotionFacts {
        guard row.integer(14) != 0 else { return .unread }
        if !row.isNull(17) { return .pairedMovie(row.integer(17)) }
        if !row.isNull(15) { return .embedded(row.integer(15)..<(row.integer(15) + row.integer(16))) }
        return .none
    }

    /// The motion of photo `row`, once its properties say it has one.
    public func motion(of row: PhotoRow) -> Motion? {
        guard row.photo.format.mayHoldMotion else { return nil }
        switch row.motionFacts {
        case .embedded(let range): return .embedded(range)
        case .pairedMovie(let movie): return photo(movie).map { .movie($0) }
        case .unread, .none: return nil
        }
    }

    /// Pairs `photo`, whose properties were just recorded with Live Photo `identifier`, with the
    /// other half in its folder, if that is there and free; adds what changed: the movie leaves
    /// its album and its day, and the still gains a motion.
    func pairLivePhoto(_ photo: PhotoRow, identifier: String, _ db: Database, into changes: inout Set<CatalogChange>) throws(DatabaseError) {
        let isMovie = photo.photo.format == .quickTime
        guard isMovie || photo.photo.format.mayHoldMotion else { return }
        let partnerFormats = isMovie ? "'\(SourceFormat.jpeg.rawValue)', '\(SourceFormat.heif.rawValue)'" : "'\(SourceFormat.quickTime.rawValue)'"
        var partner: Int64?
        try db.query("""
            SELECT q.photo FROM properties q JOIN photos p ON p.id = q.photo
            WHERE q.live_id = ? AND p.folder = ? AND p.format IN (\(partnerFormats)) AND q.photo != ?
              AND q.photo NOT IN (SELECT \(isMovie ? "still" : "movie") FROM live_pairs)
            ORDER BY q.photo LIMIT 1
            """, [.text(identifier), .integer(photo.folder), .integer(photo.id)]) { partner = $0.integer(0) }
        guard let partner else { return }
        let (movie, still) = isMovie ? (photo.id, partner) : (partner, photo.id)
        try db.query("INSERT OR IGNORE INTO live_pairs(movie, still) VALUES (?, ?)", [.integer(movie), .integer(still)])
        guard db.changes > 0 else { return }
        var movieName: [UInt8] = []
        try db.query("SELECT asset_name FROM photos WHERE id = ?", [.integer(movie)]) { movieName = $0.blob(0) }
        changes.formUnion([.albumPhotos(photo.folder), .assetName(album: photo.folder, name: movieName), .motionAppeared(still)])
        changes.formUnion(try Self.timelineChanges(ofPhoto: movie, db))
    }
}
