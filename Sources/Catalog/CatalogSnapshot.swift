import PhotoSource
import Posix
import SQLiteDatabase

/// One state of the catalog, handed borrowed to the body of `CatalogStore.read` or `request`:
/// every read of the catalog is a method of it (or takes it), so which reads share a state is
/// written in the code, and a read outside one, or a snapshot kept past its body, does not
/// compile. Non-copyable and not `Sendable`: it stays with its body, on its thread.
public struct CatalogSnapshot: ~Copyable {
    /// The connection whose read transaction this is (internal: nobody outside can keep it).
    let reader: ReadConnection

    init(_ reader: ReadConnection) { self.reader = reader }

    /// Runs `body`'s statements in this snapshot; a failure reads as `fallback` ("nothing
    /// there"), is logged, and fails the snapshot (a request answers EIO).
    func read<R>(_ fallback: R, _ body: (Database) throws(DatabaseError) -> R) -> R {
        do throws(DatabaseError) { return try body(reader.database) } catch {
            reader.readFailed(error)
            return fallback
        }
    }

    /// Lets this snapshot see what was committed since it began: what its own request just
    /// stored. Call with no write in progress.
    public func seeOwnWrites() { reader.renewSnapshot() }

    /// The catalog's commit count (`CommitCounter`) this snapshot reads, while nobody has
    /// committed since it began and none of its reads failed: figures read in another snapshot
    /// at the same count are this one's too. Nil when that cannot be told.
    public var commitCount: UInt64? { reader.soundCommitCount }

    /// Whether a read of this snapshot has failed (its results were fallbacks).
    public var hasFailed: Bool { reader.snapshotHasFailed }

    public func folder(_ id: Int64) -> CatalogStore.Folder? {
        read(nil) { db throws(DatabaseError) in
            if let hit = try reader.recent(\.folders, id) { return hit }
            var result: CatalogStore.Folder?
            try db.query("SELECT \(CatalogStore.folderColumns) FROM folders WHERE id = ?", [.integer(id)]) { result = CatalogStore.folder($0) }
            if let result { reader.keep(folders: [result]) }
            return result
        }
    }

    public func folder(at relative: FilePath) -> CatalogStore.Folder? {
        read(nil) { db throws(DatabaseError) in
            var result: CatalogStore.Folder?
            try db.query("SELECT \(CatalogStore.folderColumns) FROM folders WHERE relpath = ?", [.blob(relative.bytes)]) { result = CatalogStore.folder($0) }
            return result
        }
    }

    /// The album shown as `name` under groups/ (folders without photos are not albums).
    public func album(named name: [UInt8]) -> CatalogStore.Folder? {
        read(nil) { db throws(DatabaseError) in
            var result: CatalogStore.Folder?
            try db.query("SELECT \(CatalogStore.folderColumns) FROM folders WHERE album_name = ? AND photo_count > 0", [.blob(name)]) { result = CatalogStore.folder($0) }
            if let result { reader.keep(folders: [result]) }
            return result
        }
    }

    /// Albums after the one with id `after`, in id order (the order they were found), up to `limit`.
    public func albums(after: Int64, limit: Int) -> [CatalogStore.Folder] {
        read([]) { db throws(DatabaseError) in
            var result: [CatalogStore.Folder] = []
            try db.query("SELECT \(CatalogStore.folderColumns) FROM folders WHERE photo_count > 0 AND id > ? ORDER BY id LIMIT ?",
                         [.integer(after), .integer(Int64(limit))]) { result.append(CatalogStore.folder($0)) }
            reader.keep(folders: result)
            return result
        }
    }

    public func photo(_ id: Int64) -> CatalogStore.PhotoRow? {
        read(nil) { db throws(DatabaseError) in
            if let hit = try reader.recent(\.photos, id) { return hit }
            var result: CatalogStore.PhotoRow?
            try db.query("SELECT \(CatalogStore.photoColumns) FROM \(CatalogStore.photoTables) WHERE p.id = ?",
                         [.integer(id)]) { result = CatalogStore.photo($0) }
            if let result { reader.keep(photos: [result]) }
            return result
        }
    }

    /// The photo at `relativePath` in SOURCE.
    public func photo(at relativePath: FilePath) -> CatalogStore.PhotoRow? {
        read(nil) { db throws(DatabaseError) in
            var result: CatalogStore.PhotoRow?
            try db.query("SELECT \(CatalogStore.photoColumns) FROM \(CatalogStore.photoTables) WHERE f.relpath = ? AND p.file_name = ?",
                         [.blob(relativePath.parent.bytes), .blob(relativePath.lastComponent)]) { result = CatalogStore.photo($0) }
            return result
        }
    }

    /// The asset called `name` in album `folder` (a Live Photo's movie is not one).
    public func photo(inFolder folder: Int64, named name: [UInt8]) -> CatalogStore.PhotoRow? {
        read(nil) { db throws(DatabaseError) in
            var result: CatalogStore.PhotoRow?
            try db.query("SELECT \(CatalogStore.photoColumns) FROM \(CatalogStore.photoTables) WHERE p.folder = ? AND p.asset_name = ? AND \(CatalogStore.shown("p.id"))",
                         [.integer(folder), .blob(name)]) { result = CatalogStore.photo($0) }
            if let result { reader.keep(photos: [result]) }
            return result
        }
    }

    /// The photo of album `folder` whose asset name with `suffix`, fitted (`Naming.fitted`), is
    /// `name`: for a short name its asset name plus the suffix; for the rare asset name too long
    /// for that, its fitted form, found among the album's long names.
    public func photo(inFolder folder: Int64, fittedName name: [UInt8], suffix: [UInt8]) -> CatalogStore.PhotoRow? {
        guard name.count > suffix.count, name.suffix(suffix.count).elementsEqual(suffix) else { return nil }
        if let row = photo(inFolder: folder, named: Array(name.dropLast(suffix.count))), Naming.fitted(row.assetName + suffix) == name {
            return row
        }
        guard name.count > Naming.maxNameBytes - suffix.count else { return nil }
        return read(nil) { db throws(DatabaseError) in
            var result: CatalogStore.PhotoRow?
            try db.query("SELECT \(CatalogStore.photoColumns) FROM \(CatalogStore.photoTables) WHERE p.folder = ? AND length(p.asset_name) > ? AND \(CatalogStore.shown("p.id"))",
                         [.integer(folder), .integer(Int64(Naming.maxNameBytes - suffix.count))]) { row in
                let photo = CatalogStore.photo(row)
                if result == nil, Naming.fitted(photo.assetName + suffix) == name { result = photo }
            }
            return result
        }
    }

    /// The assets of album `folder` after the one with id `after`, in id order, up to `limit`:
    /// its photos and videos but the movies of Live Photos, shown by their stills.
    public func photos(inFolder folder: Int64, after: Int64, limit: Int) -> [CatalogStore.PhotoRow] {
        read([]) { db throws(DatabaseError) in
            var result: [CatalogStore.PhotoRow] = []
            try db.query("SELECT \(CatalogStore.photoColumns) FROM \(CatalogStore.photoTables) WHERE p.folder = ? AND p.id > ? AND \(CatalogStore.shown("p.id")) ORDER BY p.id LIMIT ?",
                         [.integer(folder), .integer(after), .integer(Int64(limit))]) { result.append(CatalogStore.photo($0)) }
            reader.keep(photos: result)
            return result
        }
    }

    /// An earlier version of a photo, kept for readers that opened it before it changed.
    /// Its file's path is the one it had then (`retired.relpath` holds the whole path).
    public func retiredPhoto(_ id: Int64, version: Int64) -> CatalogStore.PhotoRow? {
        read(nil) { db throws(DatabaseError) in
            var result: CatalogStore.PhotoRow?
            try db.query("""
                SELECT \(PhotoColumn.retiredSelection) FROM retired r JOIN photos p ON p.id = r.photo
                WHERE r.photo = ? AND r.version & 65535 = ? ORDER BY r.version DESC LIMIT 1
                """, [.integer(id), .integer(version)]) { row in
                var photo = CatalogStore.photo(row)
                photo.photo.relativePath = FilePath(bytes: NamedRow(row, PhotoColumn.self).blob(.folderPath))
                result = photo
            }
            return result
        }
    }
}
