import SQLiteDatabase

/// An album's names follow the files it holds now (`Naming.assetNames`), not the order they came
/// in: a photo whose name another now has a better claim to (a still beside the movie that came
/// first), or that a file gone leaves free, is renamed, with its names in the views' folders.
extension CatalogStore {
    /// Gives each photo its new name (in one album; called inside the folder's apply), first moving
    /// every one aside to a name no file can have (with a `/`): names may pass from one to another.
    func rename(_ renamed: [(row: PhotoRow, name: [UInt8])], _ db: Database,
                into changes: inout [CatalogChange]) throws(DatabaseError) {
        guard !renamed.isEmpty else { return }
        for (row, _) in renamed {
            try db.query("UPDATE photos SET asset_name = CAST('/' || id AS BLOB) WHERE id = ?", [.integer(row.id)])
        }
        for (row, name) in renamed {
            try db.query("UPDATE photos SET asset_name = ? WHERE id = ?", [.blob(name), .integer(row.id)])
            changes += [.assetName(album: row.folder, name: row.assetName), .assetName(album: row.folder, name: name)]
        }
        try Self.renameMembers(photos: renamed.map { ($0.row.id, $0.name) }, db)
    }
}
