import SQLiteDatabase

/// An album's names follow the files it holds now (`Naming.assetNames`), not the order they came
/// in: a photo whose name another now has a better claim to (a still beside the movie that came
/// first), or that a file gone leaves free, is renamed, with its name in its day's folder.
extension CatalogStore {
    /// Gives each photo its new name (in one album; called inside the folder's apply), first moving
    /// every one aside to a name no file can have (with a `/`): names may pass from one to another.
    func rename(_ renamed: [(row: PhotoRow, name: [UInt8])], _ db: Database,
                into changes: inout [CatalogChange]) throws(DatabaseError) {
        guard !renamed.isEmpty else { return }
        var dated: [Int64: Int] = [:]
        for (row, _) in renamed {
            try db.query("SELECT day FROM properties WHERE photo = ?", [.integer(row.id)]) { dated[row.id] = Int($0.integer(0)) }
            changes += try Self.timelineChanges(ofPhoto: row.id, db)
            try db.query("UPDATE photos SET asset_name = CAST('/' || id AS BLOB) WHERE id = ?", [.integer(row.id)])
            try db.query("UPDATE properties SET dated_name = CAST('/' || photo AS BLOB) WHERE photo = ?", [.integer(row.id)])
        }
        for (row, name) in renamed {
            try db.query("UPDATE photos SET asset_name = ? WHERE id = ?", [.blob(name), .integer(row.id)])
            changes += [.assetName(album: row.folder, name: row.assetName), .assetName(album: row.folder, name: name)]
            guard let day = dated[row.id] else { continue }
            let datedName = try uniqueDatedName(name, day: day, photo: row.id, db)
            try db.query("UPDATE properties SET dated_name = ? WHERE photo = ?", [.blob(datedName), .integer(row.id)])
            changes.append(.dated(day: day, name: datedName, photo: row.id))
        }
    }
}
