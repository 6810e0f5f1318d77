import PhotoSource
import SQLiteDatabase

/// What an asset folder shows beside its renditions and original follows other rows than its
/// photo's: a Live Photo's movie and an edit (paired or unpaired: either half changed, went, or was read)
/// and a Motion Photo's video (its properties read, read again, or dropped). Triggers on the
/// writer's connection note every such photo, whatever statement changed it, and each write
/// turns the notes into changes (`assetFolderChanges`): the kernel is told once, here, instead
/// of by each path that may make or break a pair.
extension CatalogStore {
    /// Temporary (the writer's connection only): made again whenever the connection is opened
    /// (with `viewEntryTriggers`).
    /// `listed` is 1 for a Live Photo's movie or an edit, which also leaves or rejoins its album (and the views).
    static let assetFolderTriggers = """
        CREATE TEMP TABLE IF NOT EXISTS asset_folders_changed(photo INTEGER PRIMARY KEY, listed INTEGER NOT NULL);
        CREATE TEMP TRIGGER IF NOT EXISTS pair_made AFTER INSERT ON main.live_pairs BEGIN
            \(noting("new.still", listed: 0)) \(noting("new.movie", listed: 1)) END;
        CREATE TEMP TRIGGER IF NOT EXISTS pair_broken AFTER DELETE ON main.live_pairs BEGIN
            \(noting("old.still", listed: 0)) \(noting("old.movie", listed: 1))
            -- The movie rejoins the views it left (`live_movie_hidden`) once read again.
            INSERT OR IGNORE INTO undated SELECT id FROM photos WHERE id IN (old.still, old.movie); END;
        CREATE TEMP TABLE IF NOT EXISTS edited_names_changed(original INTEGER NOT NULL, file_name BLOB NOT NULL, format TEXT NOT NULL);
        CREATE TEMP TRIGGER IF NOT EXISTS edit_pair_made AFTER INSERT ON main.edit_pairs BEGIN
            \(noting("new.original", listed: 0)) \(noting("new.edit", listed: 1))
            INSERT INTO edited_names_changed SELECT new.original, file_name, format FROM photos WHERE id = new.edit; END;
        CREATE TEMP TRIGGER IF NOT EXISTS edit_pair_unmade AFTER DELETE ON main.edit_pairs BEGIN
            \(noting("old.original", listed: 0)) \(noting("old.edit", listed: 1))
            INSERT INTO edited_names_changed SELECT old.original, file_name, format FROM photos WHERE id = old.edit; END;
        -- A paired edit's name before its row goes or changes (the pair is unmade after: too late to read it).
        CREATE TEMP TRIGGER IF NOT EXISTS paired_edit_removed BEFORE DELETE ON main.photos BEGIN \(notingEditedName) END;
        CREATE TEMP TRIGGER IF NOT EXISTS paired_edit_changed BEFORE UPDATE OF version ON main.photos BEGIN \(notingEditedName) END;
        CREATE TEMP TRIGGER IF NOT EXISTS motion_stored AFTER INSERT ON main.properties WHEN new.motion_offset IS NOT NULL BEGIN
            \(noting("new.photo", listed: 0)) END;
        CREATE TEMP TRIGGER IF NOT EXISTS motion_replaced BEFORE INSERT ON main.properties BEGIN
            INSERT OR IGNORE INTO asset_folders_changed SELECT photo, 0 FROM properties WHERE photo = new.photo AND motion_offset IS NOT NULL; END;
        CREATE TEMP TRIGGER IF NOT EXISTS motion_dropped AFTER DELETE ON main.properties WHEN old.motion_offset IS NOT NULL BEGIN
            \(noting("old.photo", listed: 0)) END;
        """

    private static let notingEditedName = "INSERT INTO edited_names_changed SELECT original, old.file_name, old.format FROM edit_pairs WHERE edit = old.id;"

    private static func noting(_ photo: String, listed: Int) -> String {
        "INSERT INTO asset_folders_changed VALUES (\(photo), \(listed)) ON CONFLICT(photo) DO UPDATE SET listed = max(listed, excluded.listed);"
    }

    /// What the triggers noted in this write (and `viewChanges`), as changes (a photo removed in
    /// it has its own), and the notes cleared. Every write ends with it.
    func assetFolderChanges(_ db: Database) throws(DatabaseError) -> [CatalogChange] {
        try Self.eventsFollowPhotos(db)
        try Self.copiesFollowContents(db)  // after: a copy taking the place of one gone is clustered without it
        var noted: [(photo: Int64, listed: Bool, folder: Int64, name: [UInt8], version: Int64)] = []
        try db.query("SELECT c.photo, c.listed, p.folder, p.asset_name, p.version FROM asset_folders_changed c JOIN photos p ON p.id = c.photo") {
            noted.append(($0.integer(0), $0.integer(1) != 0, $0.integer(2), $0.blob(3), $0.integer(4)))
        }
        try db.query("DELETE FROM asset_folders_changed")
        var editedNames: [Int64: Set<[UInt8]>] = [:]
        try db.query("SELECT original, file_name, format FROM edited_names_changed") {
            editedNames[$0.integer(0), default: []].insert(Photo.editedFileName(fileName: $0.blob(1), format: SourceFormat(rawValue: $0.text(2)) ?? .jpeg))
        }
        try db.query("DELETE FROM edited_names_changed")
        var changes = try Self.viewChanges(db)
        for photo in noted {
            changes.append(.assetFiles(photo.photo, version: photo.version, editedNames: (editedNames[photo.photo] ?? []).sorted { $0.lexicographicallyPrecedes($1) }))
            changes += try Self.memberChanges(ofPhoto: photo.photo, db)
            guard photo.listed else { continue }
            changes += [.albumPhotos(photo.folder), .assetName(album: photo.folder, name: photo.name)]
        }
        return changes
    }
}
