import PhotoSource
import SQLiteDatabase

/// Edits with their originals (`EditNames`): an edit and its original in one folder, both
/// pictures with the same date taken (from the picture, not the file's time or name; the same
/// local time where one says its UTC offset and the other does not) and the same camera, are one asset, modelled on Live Photos: the edit is the hidden half (in no listing,
/// lookup or view: `shown`), the original the shown asset, whose renditions show the edit. The
/// pair is made when the second of the two has its properties recorded; a change or removal of
/// either breaks it (these triggers) and has both read again, which pairs anew if they still match.
extension CatalogStore {
    static let editPairsSchema = """
        CREATE TABLE IF NOT EXISTS edit_pairs(edit INTEGER PRIMARY KEY, original INTEGER NOT NULL UNIQUE);
        CREATE TRIGGER IF NOT EXISTS edit_photo_changed AFTER UPDATE OF version ON photos BEGIN
            DELETE FROM edit_pairs WHERE edit = new.id OR original = new.id; END;
        CREATE TRIGGER IF NOT EXISTS edit_photo_removed AFTER DELETE ON photos BEGIN
            DELETE FROM edit_pairs WHERE edit = old.id OR original = old.id; END;
        -- The edit rejoins the views once read again.
        CREATE TRIGGER IF NOT EXISTS edit_pair_broken AFTER DELETE ON edit_pairs BEGIN
            INSERT OR IGNORE INTO undated SELECT id FROM photos WHERE id IN (old.edit, old.original); END;
        """

    /// Date sources that come from the picture itself: a file's time or name says nothing of
    /// whether two files are one shot.
    private static let pictureDateSources = DateSource.allCases.filter { ![.modificationTime, .fileName].contains($0) }
        .map { String($0.rawValue) }.joined(separator: ", ")

    /// Pairs `photo`, whose properties were just recorded, with its edit or its original in its
    /// folder (the first by id that matches by content and is not paired with another), then
    /// takes the edit out of the views and events.
    func pairEdit(_ photo: PhotoRow, _ db: Database) throws(DatabaseError) {
        guard !photo.photo.format.isVideo else { return }
        for partner in EditNames.partners(of: photo.photo.fileName) {
            var candidates: [Int64] = []
            // The names `stem.` up to `stem/`: a range of the (folder, file_name) index, not a
            // scan of the folder for each photo read.
            let (from, below) = (partner.stem + [UInt8(ascii: ".")], partner.stem + [UInt8(ascii: "/")])
            try db.query("SELECT id, file_name, format FROM photos WHERE folder = ? AND file_name >= ? AND file_name < ? AND id != ? ORDER BY id",
                         [.integer(photo.folder), .blob(from), .blob(below), .integer(photo.id)]) {
                guard EditNames.name($0.blob(1), hasStem: partner.stem), SourceFormat(rawValue: $0.text(2))?.isVideo == false else { return }
                candidates.append($0.integer(0))
            }
            for candidate in candidates {
                let (edit, original) = partner.isEdit ? (photo.id, candidate) : (candidate, photo.id)
                var paired = false
                try db.query("""
                    INSERT OR IGNORE INTO edit_pairs(edit, original)
                    SELECT e.photo, o.photo FROM properties e, properties o
                    WHERE e.photo = ? AND o.photo = ? AND (e.date = o.date OR e.taken = o.taken) AND e.camera = o.camera
                      AND e.date_source IN (\(Self.pictureDateSources)) AND o.date_source IN (\(Self.pictureDateSources))
                      AND e.photo NOT IN (SELECT original FROM edit_pairs) AND o.photo NOT IN (SELECT edit FROM edit_pairs)
                    RETURNING edit
                    """, [.integer(edit), .integer(original)]) { _ in paired = true }
                guard paired else { continue }
                try Self.updateMembers(ofPhoto: edit, db)
                try Self.placeInEvents(ofPhoto: edit, db)
                return
            }
        }
    }
}

extension CatalogSnapshot {
    /// The edit original `row` shows, once they are paired: its renditions are made from it.
    public func edit(of row: CatalogStore.PhotoRow) -> CatalogStore.PhotoRow? {
        row.edit.flatMap { photo($0) }
    }

    /// The file `row`'s asset folder's renditions are made from: its edit once paired (what the
    /// phone showed), else its own. The one answer for the mount, `assetfs warm`, the broken-photo
    /// check and the cache's pruning, so none of them renders or judges a file no mount shows.
    public func renditionSource(of row: CatalogStore.PhotoRow) -> CatalogStore.PhotoRow {
        edit(of: row) ?? row
    }

    /// The original whose asset shows the edit `edit`, once they are paired.
    public func original(ofEdit edit: Int64) -> CatalogStore.PhotoRow? {
        var original: Int64?
        read(()) { db throws(DatabaseError) in try db.query("SELECT original FROM edit_pairs WHERE edit = ?", [.integer(edit)]) { original = $0.integer(0) } }
        return original.flatMap { photo($0) }
    }
}
