import SQLiteDatabase

/// Duplicates (issue 32): shown photos whose pictures have one content id are one content. Each
/// copy keeps its own asset folder in `groups/`, but the views built on dates and content show
/// the content once, by its representative: the copy of lowest photo id (stable, and the one
/// `ids/<id>` resolves to). The others are members of no view and in no event.
///
/// Ids are made after the properties, so a photo first enters the views as its properties say,
/// and a copy leaves them when its id is recorded (`recordContentIDs`). When the representative
/// goes (removed, or changed: its id is made again), the next copy takes its place in the same
/// write (`copiesFollowContents`), and the kernel is told with the rest of the write's changes.
extension CatalogStore {
    /// Temporary (the writer's connection only): the content ids whose photo lost its properties
    /// in this write (removed or changed), so another copy may take its place.
    static let duplicatesTriggers = """
        CREATE TEMP TABLE IF NOT EXISTS contents_left(content_id BLOB PRIMARY KEY);
        CREATE TEMP TRIGGER IF NOT EXISTS content_left AFTER DELETE ON main.properties WHEN length(old.content_id) > 0 BEGIN
            INSERT OR IGNORE INTO contents_left VALUES (old.content_id); END;
        """

    /// An SQL condition: the photo whose id is `column` represents its content in the views (it is
    /// shown and no shown photo of lower id has its content id; one without an id yet does).
    static func represents(_ column: String) -> String {
        """
        \(shown(column)) AND NOT EXISTS (SELECT 1 FROM properties own JOIN properties other
            ON other.content_id = own.content_id AND other.photo < own.photo
            WHERE own.photo = \(column) AND length(own.content_id) > 0 AND \(shown("other.photo")))
        """
    }

    /// Every photo of content `digest` made a member of what its properties say if it represents
    /// the content, of nothing if it is a copy, and placed in the events or taken out. With
    /// `onlyIfCopies`, nothing for a content of one photo (already where its properties say).
    static func updateCopies(ofContent digest: [UInt8], onlyIfCopies: Bool, _ db: Database) throws(DatabaseError) {
        var photos: [Int64] = []
        try db.query("SELECT photo FROM properties WHERE content_id = ? ORDER BY photo", [.blob(digest)]) { photos.append($0.integer(0)) }
        guard !onlyIfCopies || photos.count > 1 else { return }
        for photo in photos {
            try updateMembers(ofPhoto: photo, db)
            try placeInEvents(ofPhoto: photo, db)
        }
    }

    /// The contents `duplicatesTriggers` noted in this write: their next copy, if any, takes the
    /// place of the one that went; the notes cleared.
    static func copiesFollowContents(_ db: Database) throws(DatabaseError) {
        var left: [[UInt8]] = []
        try db.query("SELECT content_id FROM contents_left") { left.append($0.blob(0)) }
        guard !left.isEmpty else { return }
        try db.query("DELETE FROM contents_left")
        for digest in left { try updateCopies(ofContent: digest, onlyIfCopies: false, db) }
    }
}
