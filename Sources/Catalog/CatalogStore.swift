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
/// wait for a scan's writes (WAL), nor for each other. Writes are methods of the store; reads,
/// of the `CatalogSnapshot` that `read` and `request` hand their body.
public final class CatalogStore: Sendable {
    public let path: FilePath
    /// The name of the album of photos directly in SOURCE.
    public let rootName: [UInt8]
    /// Names no asset is given (the mount shows other files beside them in an album's folder).
    let reservedAssetNames: [[UInt8]]
    let readers: ReaderPool
    let writer: Locked<Database>
    /// Every commit of `writer`, counted for the readers of every process (`CommitCounter`).
    let commits: CommitCounter
    static let schemaVersion = 13

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
        commits = CommitCounter(catalog: path)
        try Self.claim(database, for: source, path: path, commits: commits)
        try database.execute(Self.writerTriggers)
        writer = Locked(database)
        readers = ReaderPool(try (0..<ReaderPool.size).map { _ throws(DatabaseError) in try Database(path: path, busyTimeout: 1000) }, path: path)
    }

    private static func claim(_ db: Database, for source: FilePath, path: FilePath, commits: CommitCounter) throws(DatabaseError) {
        var stored: [UInt8]?
        try db.query("SELECT value FROM meta WHERE key = 'source'") { stored = $0.blob(0) }
        guard stored != source.bytes else { return }
        if let stored {
            Log.warning("\(path): the catalog was of \(FilePath(bytes: stored)), not \(source): starting it afresh")
        }
        try db.execute("""
            BEGIN IMMEDIATE;
            DELETE FROM folders; DELETE FROM photos; DELETE FROM retired; DELETE FROM skipped; DELETE FROM meta;
            DELETE FROM properties; DELETE FROM undated;
            DELETE FROM view_folders; DELETE FROM view_members; DELETE FROM view_suffixes; DELETE FROM event_photos; DELETE FROM events;
            """)
        do throws(DatabaseError) {
            try db.query("INSERT INTO meta(key, value) VALUES ('source', ?)", [.blob(source.bytes)])
            try commits.committing { () throws(DatabaseError) in try db.execute("COMMIT") }
        } catch {
            try? db.execute("ROLLBACK")
            throw error
        }
    }

    /// The temporary triggers of the writer's connection, made whenever it is opened.
    static let writerTriggers = assetFolderTriggers + viewEntryTriggers + eventsTriggers + duplicatesTriggers

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
                try? db.execute(Self.writerTriggers)
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
        /// The photo id of the edit it shows (`CatalogStore+Edits.swift`), read with the row for
        /// the same reason: a photo with none costs no statement more.
        public var edit: Int64?
        /// The MD5 of its whole file when a copy of it is known and it has been read
        /// (`CatalogStore+RenditionDigests.swift`): its renditions are shared with the copies'.
        public var renditionDigest: [UInt8]?
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

    /// The photo row of `PhotoColumn.selection`, selected after `offset` other columns.
    static func photo(_ row: Database.Row, offset: Int32 = 0) -> PhotoRow {
        let row = NamedRow(row, PhotoColumn.self, offset: offset)
        let fileName = row.blob(.fileName)
        return PhotoRow(id: row.integer(.id), folder: row.integer(.folder), assetName: row.blob(.assetName), version: row.integer(.version),
                        photo: Photo(relativePath: FilePath(bytes: row.blob(.folderPath)).appending(fileName), fileName: fileName,
                                     identity: SourceIdentity(inode: UInt64(bitPattern: row.integer(.inode)), size: row.integer(.size),
                                                              modificationNanoseconds: row.integer(.mtime), changeNanoseconds: row.integer(.ctime)),
                                     userID: UInt32(truncatingIfNeeded: row.integer(.uid)), groupID: UInt32(truncatingIfNeeded: row.integer(.gid)),
                                     permissions: UInt32(truncatingIfNeeded: row.integer(.permissions)),
                                     format: SourceFormat(rawValue: row.text(.format)) ?? .jpeg),
                        motionFacts: motionFacts(row), edit: row.optionalInteger(.pairedEdit),
                        renditionDigest: renditionDigest(row.optionalBlob(.renditionDigest)))
    }

    // MARK: Reading

    /// Runs `body` on one state of the catalog: a snapshot, one read transaction on a reader
    /// connection, which every read `body` makes goes through and which it cannot keep (as GRDB's
    /// `read { db in }`). A read that fails is logged and reads as "nothing there". Not to be
    /// called inside another snapshot on the same thread: pass that one instead.
    public func read<R, E: Error>(_ body: (borrowing CatalogSnapshot) throws(E) -> R) throws(E) -> R {
        var result: Result<R, E>?
        _ = readers.withConnection { $0.snapshot { catalog in result = Result { () throws(E) in try body(catalog) } } }
        return try result!.get()
    }

    /// Runs `body`, the catalog work of one request, on one snapshot, as `read` does. False when
    /// a read failed: the catalog could not say, which is an I/O error, never "no such file". Not
    /// generic: AssetFS calls it for every kernel request, and a generic one ran unspecialised
    /// across the module boundary, looking up its result's type metadata each time.
    public func request(_ body: (borrowing CatalogSnapshot) -> Void) -> Bool {
        !readers.withConnection { $0.snapshot(body) }
    }

    /// How many statements the read connections' finished snapshots have run: what requests
    /// cost the catalog.
    public var readQueryCount: Int { readers.queryCount }
}
