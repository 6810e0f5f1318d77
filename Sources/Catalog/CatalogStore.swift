import Glibc
import PhotoSource
import Posix
import SQLiteDatabase

/// The virtual tree, persisted per SOURCE in SQLite: folders (albums), photos with their identity
/// and ownership, the names shown and the row ids inode numbers are made of. A remount serves it
/// at once; scans change it folder by folder (`CatalogStore+Changes.swift`). Nothing of it is
/// held in memory beyond SQLite's own page cache, so a million photos cost what a few do.
///
/// One writer and a pool of readers (`ReaderPool`), as GRDB's DatabasePool has: lookups never
/// wait for a scan's writes (WAL), nor for each other.
public final class CatalogStore: Sendable {
    public let path: FilePath
    /// The name of the album of photos directly in SOURCE.
    public let rootName: [UInt8]
    /// Names no asset is given (the mount shows other files beside them in an album's folder).
    let reservedAssetNames: [[UInt8]]
    let readers: ReaderPool
    let writer: Locked<Database>
    static let schemaVersion = 9

    /// Opens (or creates) the catalog at `path` for a SOURCE whose last path component is
    /// `rootName`, giving no asset one of `reservedAssetNames`. A file that is not a valid catalog
    /// is moved aside and a new one made (the tree is scanned again).
    ///
    /// A catalog is of one SOURCE (its real path is stored): opened for another (the same
    /// `-o cache=` given for two sources), it is emptied and that SOURCE scanned afresh.
    public init(path: FilePath, source: FilePath, reservedAssetNames: [[UInt8]]) throws(DatabaseError) {
        self.path = path
        self.reservedAssetNames = reservedAssetNames
        let last = source.lastComponent
        rootName = last.isEmpty || last == [UInt8(ascii: "/")] ? Array("root".utf8) : last
        let database = try Database.openPrivate(path, what: "catalog", Self.open)
        try Self.claim(database, for: source, path: path)
        try database.execute(Self.assetFolderTriggers)
        writer = Locked(database)
        readers = ReaderPool(try (0..<ReaderPool.size).map { _ throws(DatabaseError) in try Database(path: path, busyTimeout: 1000) })
    }

    private static func claim(_ db: Database, for source: FilePath, path: FilePath) throws(DatabaseError) {
        var stored: [UInt8]?
        try db.query("SELECT value FROM meta WHERE key = 'source'") { stored = $0.blob(0) }
        guard stored != source.bytes else { return }
        if let stored {
            Log.warning("\(path): the catalog was of \(FilePath(bytes: stored)), not \(source): starting it afresh")
        }
        try db.execute("""
            BEGIN IMMEDIATE;
            DELETE FROM folders; DELETE FROM photos; DELETE FROM retired; DELETE FROM skipped; DELETE FROM meta;
            DELETE FROM properties; DELETE FROM undated; DELETE FROM dated_suffixes;
            """)
        do throws(DatabaseError) {
            try db.query("INSERT INTO meta(key, value) VALUES ('source', ?)", [.blob(source.bytes)])
            try db.execute("COMMIT")
        } catch {
            try? db.execute("ROLLBACK")
            throw error
        }
    }

    /// A catalog SQLite opened read-only (its folder or file system was) stays so, even once it
    /// may be written again: before a write, both connections are opened afresh (a write that
    /// still cannot be made fails, and the caller tries again later). Locks in the order a read
    /// snapshot that stores properties takes them: reader, then writer.
    func reopenIfReadOnly() {
        guard writer.withLock({ $0.isReadOnly }) else { return }
        _ = readers.withEveryConnectionIdle { readerConnections in
            writer.withLock { db in
                guard Database.reopenIfReadOnly(writer: db, readers: readerConnections) else { return }
                try? db.useWriteAheadLog()
                try? db.execute(Self.pragmas)
                try? db.execute(Self.assetFolderTriggers)
            }
        }
    }

    // MARK: Rows

    /// A source folder (an album when it holds photos).
    public struct Folder: Sendable, Equatable {
        public var id: Int64
        public var relativePath: FilePath
        /// No wider than those of every folder on the way down from the root.
        public var ownership: Ownership
        public var albumName: [UInt8]?
        public var photoCount: Int
    }

    /// A photo and where it is shown.
    public struct PhotoRow: Sendable, Equatable {
        public var id: Int64
        public var folder: Int64
        public var assetName: [UInt8]
        public var version: Int64
        public var photo: Photo
        /// What its stored properties say of a motion beside it, read with the row: an asset
        /// folder's files follow it, and a listing then needs no query of its own per asset.
        public var motionFacts: MotionFacts
    }

    static let folderColumns = "id, relpath, uid, gid, permissions, mtime, album_name, photo_count"

    static func folder(_ row: Database.Row) -> Folder {
        Folder(id: row.integer(0), relativePath: FilePath(bytes: row.blob(1)),
               ownership: Ownership(userID: UInt32(truncatingIfNeeded: row.integer(2)), groupID: UInt32(truncatingIfNeeded: row.integer(3)),
                                    permissions: UInt32(truncatingIfNeeded: row.integer(4)), modificationNanoseconds: row.integer(5)),
               albumName: row.isNull(6) ? nil : row.blob(6), photoCount: Int(row.integer(7)))
    }

    /// Where photo rows are read from: each with its folder, and its properties if read (`q`).
    static let photoTables = "photos p JOIN folders f ON f.id = p.folder LEFT JOIN properties q ON q.photo = p.id"

    static let photoColumns = PhotoColumn.selection

    static func photo(_ row: Database.Row) -> PhotoRow {
        let row = NamedRow(row, PhotoColumn.self)
        let fileName = row.blob(.fileName)
        return PhotoRow(id: row.integer(.id), folder: row.integer(.folder), assetName: row.blob(.assetName), version: row.integer(.version),
                        photo: Photo(relativePath: FilePath(bytes: row.blob(.folderPath)).appending(fileName), fileName: fileName,
                                     identity: SourceIdentity(inode: UInt64(bitPattern: row.integer(.inode)), size: row.integer(.size),
                                                              modificationNanoseconds: row.integer(.mtime), changeNanoseconds: row.integer(.ctime)),
                                     userID: UInt32(truncatingIfNeeded: row.integer(.uid)), groupID: UInt32(truncatingIfNeeded: row.integer(.gid)),
                                     permissions: UInt32(truncatingIfNeeded: row.integer(.permissions)),
                                     format: SourceFormat(rawValue: row.text(.format)) ?? .jpeg),
                        motionFacts: motionFacts(row))
    }

    // MARK: Reading

    /// Runs read queries on this thread's reader connection (`reader`), in a snapshot of their
    /// own unless in one already; a failure reads as "nothing there" (and is logged), and fails
    /// the `request` it is part of.
    func read<R: Sendable>(_ fallback: R, _ body: (Database) throws(DatabaseError) -> R) -> R {
        readers.withConnection { reader in
            reader.use { db in
                reader.snapshot {
                    do throws(DatabaseError) { return try body(db) } catch {
                        Log.warning("\(path): catalog read failed: \(error)")
                        reader.readFailed()
                        return fallback
                    }
                }
            }
        }
    }

    /// The connection this thread holds: for the recent rows, called inside `read` only.
    var reader: ReadConnection {
        guard let held = readers.held else { preconditionFailure("the catalog's reader asked for outside a read") }
        return held
    }

    /// Runs `body` on one state of the catalog: every read it makes (on this thread) sees the
    /// same committed tree, and SQLite locks once for all of them.
    public func snapshot<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R { try readers.withConnection { (reader) throws(E) in try reader.snapshot(body) } }

    /// Runs `body`, the catalog work of one request, on one snapshot: its rows are read once
    /// and the recent rows validated once. False when a read failed: the catalog could not say,
    /// which is an I/O error, never "no such file". Not generic: AssetFS calls it for every
    /// kernel request, and a generic one ran unspecialised across the module boundary, looking
    /// up its result's type metadata each time.
    public func request(_ body: () -> Void) -> Bool { readers.withConnection { $0.request(body) } }

    /// Whether this thread is inside a request's (or another) snapshot.
    public var isInSnapshot: Bool { readers.held?.isInSnapshot ?? false }

    /// Lets a request in progress on this thread see what it has just stored (its snapshot began
    /// before). Call with no write in progress.
    public func seeOwnWrites() { readers.held?.renewSnapshot() }

    /// How many statements the read connections have run: what requests cost the catalog.
    public var readQueryCount: Int { readers.queryCount }

    public func folder(_ id: Int64) -> Folder? {
        read(nil) { db throws(DatabaseError) in
            if let hit = try reader.recentFolder(id) { return hit }
            var result: Folder?
            try db.query("SELECT \(Self.folderColumns) FROM folders WHERE id = ?", [.integer(id)]) { result = Self.folder($0) }
            if let result { reader.keep(folders: [result]) }
            return result
        }
    }

    public func folder(at relative: FilePath) -> Folder? {
        read(nil) { db throws(DatabaseError) in
            var result: Folder?
            try db.query("SELECT \(Self.folderColumns) FROM folders WHERE relpath = ?", [.blob(relative.bytes)]) { result = Self.folder($0) }
            return result
        }
    }

    /// The album shown as `name` under groups/ (folders without photos are not albums).
    public func album(named name: [UInt8]) -> Folder? {
        read(nil) { db throws(DatabaseError) in
            var result: Folder?
            try db.query("SELECT \(Self.folderColumns) FROM folders WHERE album_name = ? AND photo_count > 0", [.blob(name)]) { result = Self.folder($0) }
            if let result { reader.keep(folders: [result]) }
            return result
        }
    }

    /// Albums after the one with id `after`, in id order (the order they were found), up to `limit`.
    public func albums(after: Int64, limit: Int) -> [Folder] {
        read([]) { db throws(DatabaseError) in
            var result: [Folder] = []
            try db.query("SELECT \(Self.folderColumns) FROM folders WHERE photo_count > 0 AND id > ? ORDER BY id LIMIT ?",
                         [.integer(after), .integer(Int64(limit))]) { result.append(Self.folder($0)) }
            reader.keep(folders: result)
            return result
        }
    }

    public func photo(_ id: Int64) -> PhotoRow? {
        read(nil) { db throws(DatabaseError) in
            if let hit = try reader.recentPhoto(id) { return hit }
            var result: PhotoRow?
            try db.query("SELECT \(Self.photoColumns) FROM \(Self.photoTables) WHERE p.id = ?",
                         [.integer(id)]) { result = Self.photo($0) }
            if let result { reader.keep(photos: [result]) }
            return result
        }
    }

    /// The photo at `relativePath` in SOURCE.
    public func photo(at relativePath: FilePath) -> PhotoRow? {
        read(nil) { db throws(DatabaseError) in
            var result: PhotoRow?
            try db.query("SELECT \(Self.photoColumns) FROM \(Self.photoTables) WHERE f.relpath = ? AND p.file_name = ?",
                         [.blob(relativePath.parent.bytes), .blob(relativePath.lastComponent)]) { result = Self.photo($0) }
            return result
        }
    }

    /// The asset called `name` in album `folder` (a Live Photo's movie is not one).
    public func photo(inFolder folder: Int64, named name: [UInt8]) -> PhotoRow? {
        read(nil) { db throws(DatabaseError) in
            var result: PhotoRow?
            try db.query("SELECT \(Self.photoColumns) FROM \(Self.photoTables) WHERE p.folder = ? AND p.asset_name = ? AND \(Self.shown("p.id"))",
                         [.integer(folder), .blob(name)]) { result = Self.photo($0) }
            if let result { reader.keep(photos: [result]) }
            return result
        }
    }

    /// The photo of album `folder` whose asset name with `suffix`, fitted (`Naming.fitted`), is
    /// `name`: for a short name its asset name plus the suffix; for the rare asset name too long
    /// for that, its fitted form, found among the album's long names.
    public func photo(inFolder folder: Int64, fittedName name: [UInt8], suffix: [UInt8]) -> PhotoRow? {
        guard name.count > suffix.count, name.suffix(suffix.count).elementsEqual(suffix) else { return nil }
        if let row = photo(inFolder: folder, named: Array(name.dropLast(suffix.count))), Naming.fitted(row.assetName + suffix) == name {
            return row
        }
        guard name.count > Naming.maxNameBytes - suffix.count else { return nil }
        return read(nil) { db throws(DatabaseError) in
            var result: PhotoRow?
            try db.query("SELECT \(Self.photoColumns) FROM \(Self.photoTables) WHERE p.folder = ? AND length(p.asset_name) > ? AND \(Self.shown("p.id"))",
                         [.integer(folder), .integer(Int64(Naming.maxNameBytes - suffix.count))]) { row in
                let photo = Self.photo(row)
                if result == nil, Naming.fitted(photo.assetName + suffix) == name { result = photo }
            }
            return result
        }
    }

    /// The assets of album `folder` after the one with id `after`, in id order, up to `limit`:
    /// its photos and videos but the movies of Live Photos, shown by their stills.
    public func photos(inFolder folder: Int64, after: Int64, limit: Int) -> [PhotoRow] {
        read([]) { db throws(DatabaseError) in
            var result: [PhotoRow] = []
            try db.query("SELECT \(Self.photoColumns) FROM \(Self.photoTables) WHERE p.folder = ? AND p.id > ? AND \(Self.shown("p.id")) ORDER BY p.id LIMIT ?",
                         [.integer(folder), .integer(after), .integer(Int64(limit))]) { result.append(Self.photo($0)) }
            reader.keep(photos: result)
            return result
        }
    }

    /// An earlier version of a photo, kept for readers that opened it before it changed.
    /// Its file's path is the one it had then (`retired.relpath` holds the whole path).
    public func retiredPhoto(_ id: Int64, version: Int64) -> PhotoRow? {
        read(nil) { db throws(DatabaseError) in
            var result: PhotoRow?
            try db.query("""
                SELECT \(PhotoColumn.retiredSelection) FROM retired r JOIN photos p ON p.id = r.photo
                WHERE r.photo = ? AND r.version & 65535 = ? ORDER BY r.version DESC LIMIT 1
                """, [.integer(id), .integer(version)]) { row in
                var photo = Self.photo(row)
                photo.photo.relativePath = FilePath(bytes: NamedRow(row, PhotoColumn.self).blob(.folderPath))
                result = photo
            }
            return result
        }
    }
}
