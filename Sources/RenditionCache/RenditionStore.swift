import Glibc
@_exported import SQLiteDatabase
import Posix

/// What the cache remembers about a rendition key, for good: the rendition's byte count, or why it
/// could not be made. (A rendition made from a smaller picture the file carries, not the photo,
/// keeps why beside its size: `reason(for:)`.) Eviction drops bytes, never outcomes, so sizes stay
/// known (renditions are deterministic: evicted bytes render again identically) and broken photos
/// are not decoded twice.
public enum Outcome: Equatable, Sendable {
    case rendered(size: Int)
    case failed(reason: String)
}

/// An opaque cache key. Built outside the store (source identity + spec + renderer version).
public struct CacheKey: Hashable, Sendable {
    public var bytes: [UInt8]
    public init(_ bytes: [UInt8]) { self.bytes = bytes }
}

/// The on-disk rendition cache: one SQLite file (WAL) holding blobs under opaque keys.
///
/// Eviction policy: least recently used first, by rendition, until the total is under `capacity`; a rendition
/// opened in the last minute counts as used now. Each write is one transaction, so a crash at any
/// moment leaves either the whole rendition or none of it.
///
/// Two connections: reads never wait for writes. In WAL mode a reader sees the last committed
/// state while another connection (ours, `assetfs warm`, `cache clear`) writes, so a cached read
/// is never held up behind a 30 s busy wait for the write lock; only writes wait.
///
/// Not the catalog's reader design (a pool, and a snapshot handed to every read of a request,
/// `CatalogSnapshot`): a cache read is one lookup by key, whole in itself (one statement, or in
/// `read` the entry and its bytes in one transaction of its own), and no answer is made of
/// several reads that must agree, so there is no snapshot to pass on; a short read behind one
/// lock is what each needs.
public final class RenditionStore: Sendable {
    public let path: FilePath
    public let capacity: Int64
    let reader: Locked<Database>
    let writer: Locked<Database>
    /// 4: reasons name no file (copies share a key; each is named as itself when told); 3's named
    /// the photo inside SOURCE, 2's SOURCE's absolute path. Failures are indexed (since 3): the
    /// broken photos are counted on every read of the statistics.
    private static let schemaVersion = 4
    private static let failureIndex = "CREATE INDEX IF NOT EXISTS outcomes_failed ON outcomes(failure) WHERE failure IS NOT NULL;"
    /// A read that cannot start at once (a checkpoint truncating the WAL) is a miss, not a stall.
    private static let readTimeout: Int32 = 200

    public struct Statistics: Sendable {
        public var bytes: Int64
        public var entries: Int
        /// Seconds since the epoch of the least recently used blob, if any.
        public var oldestUse: Int64?
        public var outcomes: Int
    }

    /// Opens (or creates) the cache at `path`; folder 0700, file 0600. A file that is not a valid
    /// database is moved aside with a warning and a new one made.
    public init(path: FilePath, capacity: Int64) throws(DatabaseError) {
        self.path = path
        self.capacity = capacity
        let database = try Database.openPrivate(path, what: "cache", Self.open)
        writer = Locked(database)
        reader = Locked(try Database(path: path, busyTimeout: Self.readTimeout))
    }

    private static func open(_ path: FilePath) throws(DatabaseError) -> Database {
        let db = try Database(path: path)
        // Cheap checks only, so opening costs the same for 10 MB and 10 GB: reading the schema
        // fails on a file that is not a database; a file cut short still says in its header how
        // long it was (only meaningful with no WAL pending: a clean close empties it). The full
        // check is `assetfs cache check`; damage found later is reported where it is met.
        try db.query("SELECT count(*) FROM sqlite_schema")
        var pages: Int64 = 0, pageSize: Int64 = 0
        try db.query("PRAGMA page_count") { pages = $0.integer(0) }
        try db.query("PRAGMA page_size") { pageSize = $0.integer(0) }
        let walSize = (try? FileStatus(path: FilePath(bytes: path.bytes + Array("-wal".utf8))).size) ?? 0
        if walSize == 0, let fileSize = try? FileStatus(path: path).size, pages * pageSize > fileSize {
            throw DatabaseError(code: 11, message: "truncated: \(fileSize) bytes where the header says \(pages * pageSize)", sql: "PRAGMA page_count")
        }
        try db.useWriteAheadLog()
        try db.execute(pragmas)
        var version: Int64 = 0
        try db.query("PRAGMA user_version") { version = $0.integer(0) }
        if version == 2 || version == 3 {
            // Same layout; its reasons are forgotten (found again on first use, one decode each),
            // since they name a file: one copy's reader would read another's path. A rendition
            // made from a preview goes with its reason, so it is made again and says why.
            try db.execute("""
                BEGIN IMMEDIATE;
                DELETE FROM entries WHERE key IN (SELECT key FROM outcomes WHERE failure IS NOT NULL AND size IS NOT NULL);
                DELETE FROM outcomes WHERE failure IS NOT NULL;
                \(Self.failureIndex) PRAGMA user_version = \(Self.schemaVersion);
                COMMIT;
                """)
        } else if version != Self.schemaVersion {
            // Renditions are derived data: an older layout is dropped, not migrated.
            try db.execute("""
                BEGIN IMMEDIATE;
                DROP TABLE IF EXISTS blobs; DROP TABLE IF EXISTS entries; DROP TABLE IF EXISTS blob_data;
                DROP TABLE IF EXISTS outcomes; DROP TABLE IF EXISTS usage;
                -- Metadata and bytes apart: marking an entry used rewrites a small row, not the blob.
                CREATE TABLE entries(id INTEGER PRIMARY KEY, key BLOB NOT NULL UNIQUE, size INTEGER NOT NULL, last_used INTEGER NOT NULL);
                CREATE INDEX entries_by_use ON entries(last_used);
                CREATE TABLE blob_data(id INTEGER PRIMARY KEY, data BLOB NOT NULL);
                -- failure: why it could not be made (size NULL), or why it was made from a preview the file carries (size set).
                CREATE TABLE outcomes(key BLOB PRIMARY KEY, size INTEGER, failure TEXT) WITHOUT ROWID;
                \(Self.failureIndex)
                CREATE TABLE usage(id INTEGER PRIMARY KEY CHECK (id = 0), bytes INTEGER NOT NULL);
                INSERT INTO usage VALUES (0, 0);
                CREATE TRIGGER entries_added AFTER INSERT ON entries BEGIN UPDATE usage SET bytes = bytes + NEW.size; END;
                CREATE TRIGGER entries_removed AFTER DELETE ON entries BEGIN
                    UPDATE usage SET bytes = bytes - OLD.size;
                    DELETE FROM blob_data WHERE id = OLD.id;
                END;
                PRAGMA user_version = \(Self.schemaVersion);
                COMMIT;
                """)
        }
        return db
    }

    public func outcome(for key: CacheKey) throws(DatabaseError) -> Outcome? {
        var result: Outcome?
        try reader.withLock { db throws(DatabaseError) in
            try db.query("SELECT size, failure FROM outcomes WHERE key = ?", [.blob(key.bytes)]) { row in
                result = row.isNull(0) ? .failed(reason: row.text(1)) : .rendered(size: Int(row.integer(0)))
            }
        }
        return result
    }

    /// Why the rendition could not be made, or was made from a preview the file carries rather
    /// than the photo: nil when neither (or nothing is known).
    public func reason(for key: CacheKey) throws(DatabaseError) -> String? {
        var reason: String?
        try reader.withLock { db throws(DatabaseError) in
            try db.query("SELECT failure FROM outcomes WHERE key = ? AND failure IS NOT NULL", [.blob(key.bytes)]) {
                reason = $0.text(0)
            }
        }
        return reason
    }

    /// The cached bytes, if still there.
    public func bytes(for key: CacheKey) throws(DatabaseError) -> [UInt8]? {
        try read(key, offset: 0, count: Int.max)
    }

    /// Up to `count` bytes from `offset` of a cached rendition, read in place (incremental blob
    /// I/O: a 128 KiB read of a large rendition copies 128 KiB, not the blob); nil if evicted.
    public func read(_ key: CacheKey, offset: Int, count: Int) throws(DatabaseError) -> [UInt8]? {
        try reader.withLock { db throws(DatabaseError) in
            // One read transaction: the entry and its bytes come from the same snapshot, even if
            // `cache clear` (or an eviction, and a new rendition given the freed row id) commits
            // between the two statements.
            try db.run("BEGIN")
            do throws(DatabaseError) {
                let bytes = try Self.read(key, offset: offset, count: count, db)
                try db.run("COMMIT")
                return bytes
            } catch {
                // A read transaction left open would show this state to every later read.
                if db.isInTransaction { try? db.run("ROLLBACK") }
                throw error
            }
        }
    }

    /// `read`'s statements, in its transaction.
    private static func read(_ key: CacheKey, offset: Int, count: Int, _ db: Database) throws(DatabaseError) -> [UInt8]? {
        var entry: (id: Int64, size: Int)?
        try db.query("SELECT id, size FROM entries WHERE key = ?", [.blob(key.bytes)]) { entry = ($0.integer(0), Int($0.integer(1))) }
        guard let entry else { return nil }
        // A small blob comes whole through a prepared statement (sqlite3_blob_open compiles
        // SQL on every call); a large one is read in place, just the range.
        guard entry.size > Self.wholeReadLimit else {
            var bytes: [UInt8]?
            try db.query("SELECT data FROM blob_data WHERE id = ?", [.integer(entry.id)]) { bytes = $0.blob(0) }
            guard let bytes, bytes.count == entry.size else { return nil }
            return offset < bytes.count ? Array(bytes[offset..<min(bytes.count, offset + min(count, bytes.count))]) : []
        }
        return try db.readBlob(table: "blob_data", column: "data", row: entry.id, offset: offset, count: count)
    }

    private static let wholeReadLimit = 128 << 10

    /// Whether the bytes are still cached.
    public func contains(_ key: CacheKey) throws(DatabaseError) -> Bool {
        var found = false
        try reader.withLock { db throws(DatabaseError) in
            try db.query("SELECT 1 FROM entries WHERE key = ?", [.blob(key.bytes)]) { _ in found = true }
        }
        return found
    }

    /// Marks renditions used now, for the LRU order: one transaction for a batch, and an entry
    /// already marked in the last minute is not written again.
    public func markUsed(_ keys: [CacheKey]) throws(DatabaseError) {
        let now = Int64(time(nil))
        try transaction { db throws(DatabaseError) in
            for key in keys {
                try db.query("UPDATE entries SET last_used = ? WHERE key = ? AND last_used < ?", [.integer(now), .blob(key.bytes), .integer(now - 60)])
            }
        }
    }

    /// Stores a rendition and its size (and why it is a preview, when it is one) in one
    /// transaction, then evicts down to the capacity.
    public func store(_ bytes: [UInt8], for key: CacheKey, previewReason: String? = nil) throws(DatabaseError) {
        try transaction { db throws(DatabaseError) in
            try db.query("INSERT INTO entries(key, size, last_used) VALUES (?, ?, ?) ON CONFLICT(key) DO NOTHING",
                         [.blob(key.bytes), .integer(Int64(bytes.count)), .integer(Int64(time(nil)))])
            if db.changes == 1 {
                try db.query("INSERT INTO blob_data(id, data) VALUES (last_insert_rowid(), ?)", [.blob(bytes)])
            }
            try db.query("INSERT OR REPLACE INTO outcomes(key, size, failure) VALUES (?, ?, ?)",
                         [.blob(key.bytes), .integer(Int64(bytes.count)), previewReason.map { .text($0) } ?? .null])
            try Self.evict(db, to: capacity)
        }
    }

    public func storeFailure(_ reason: String, for key: CacheKey) throws(DatabaseError) {
        try transaction { db throws(DatabaseError) in
            try db.query("INSERT OR REPLACE INTO outcomes(key, size, failure) VALUES (?, NULL, ?)", [.blob(key.bytes), .text(reason)])
        }
    }

    /// Every failure stored: the key and its reason (for the list of broken photos).
    public func failures() throws(DatabaseError) -> [(key: CacheKey, reason: String)] {
        var result: [(key: CacheKey, reason: String)] = []
        try reader.withLock { db throws(DatabaseError) in
            try db.query("SELECT key, failure FROM outcomes WHERE failure IS NOT NULL") { result.append((CacheKey($0.blob(0)), $0.text(1))) }
        }
        return result
    }

    func transaction(_ body: (Database) throws(DatabaseError) -> Void) throws(DatabaseError) {
        reopenIfReadOnly()
        try writer.withLock { db throws(DatabaseError) in
            try db.execute("BEGIN IMMEDIATE")
            do throws(DatabaseError) {
                try body(db)
                try db.execute("COMMIT")
            } catch {
                try? db.execute("ROLLBACK")
                throw error
            }
        }
    }

    private static let pragmas = "PRAGMA synchronous = NORMAL;"

    /// A cache SQLite opened read-only (its folder or file system was) stays so even once it may
    /// be written again: before a write, both connections are opened afresh.
    private func reopenIfReadOnly() {
        guard writer.withLock({ $0.isReadOnly }) else { return }
        reader.withLock { readConnection in
            writer.withLock { db in
                if Database.reopenIfReadOnly(writer: db, readers: [readConnection]) {
                    try? db.useWriteAheadLog()
                    try? db.execute(Self.pragmas)
                }
            }
        }
    }

    static func evict(_ db: Database, to capacity: Int64) throws(DatabaseError) {
        while true {
            var total: Int64 = 0
            try db.query("SELECT bytes FROM usage") { total = $0.integer(0) }
            guard total > capacity else { return }
            try db.query("DELETE FROM entries WHERE id IN (SELECT id FROM entries ORDER BY last_used, id LIMIT 1)")
            if db.changes == 0 { return }
        }
    }
}
