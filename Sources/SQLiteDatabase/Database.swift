internal import CSQLite
import Posix

/// An SQLite error, keeping SQLite's result code and message and the SQL that failed.
public struct DatabaseError: Error, CustomStringConvertible, Sendable {
    public var code: Int32
    public var message: String
    public var sql: String

    public init(code: Int32, message: String, sql: String) {
        self.code = code
        self.message = message
        self.sql = sql
    }

    public var description: String { "SQLite error \(code): \(message) (\(sql))" }
    public static let corrupt: Int32 = SQLITE_CORRUPT
    /// The file is not a database, or is damaged: move it aside and start again.
    public var isCorruption: Bool { code & 0xFF == SQLITE_NOTADB || code & 0xFF == SQLITE_CORRUPT }
}

/// The one owner of an SQLite connection (as in GRDB): opened in `init`, closed in `deinit`.
/// Not thread-safe by itself: its owner uses it from one thread at a time (the rendition store
/// and the catalog's writer behind a lock, a catalog reader held by one thread, `ReadConnection`),
/// which is what the unchecked `Sendable` stands for.
public final class Database: @unchecked Sendable {
    private var handle: OpaquePointer
    private let path: FilePath
    private let busyTimeout: Int32
    /// Prepared once, reset after each use: preparing is a large part of a small query's cost.
    private var statements: [String: OpaquePointer] = [:]

    /// `busyTimeout`: how long a statement waits for another connection's lock before failing.
    public init(path: FilePath, busyTimeout milliseconds: Int32 = 30_000) throws(DatabaseError) {
        _ = Self.configured
        self.path = path
        busyTimeout = milliseconds
        let (handle, code) = Self.connect(path, busyTimeout: milliseconds)
        guard code == SQLITE_OK else {
            let message = String(cString: sqlite3_errmsg(handle))
            sqlite3_close(handle)
            throw DatabaseError(code: code, message: message, sql: "open \(path)")
        }
        self.handle = handle
    }

    /// `sqlite3_open_v2`: "A database connection handle is usually returned in *ppDb, even if an
    /// error occurs" (then every call on it fails); only when SQLite cannot allocate it, none.
    private static func connect(_ path: FilePath, busyTimeout milliseconds: Int32) -> (OpaquePointer, Int32) {
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let code = path.withCString { sqlite3_open_v2($0, &handle, flags, nil) }
        guard let handle else { fatalError("SQLite cannot allocate a connection: out of memory") }
        sqlite3_extended_result_codes(handle, 1)
        // "This routine sets a busy handler that sleeps and tries again until at least ms
        // milliseconds of sleeping have accumulated": a mount and `assetfs warm` share the file.
        sqlite3_busy_timeout(handle, milliseconds)
        // The write-ahead log and its index outlive the last connection: a catalog or cache whose
        // file system is read-only at the next mount (a remount ro, a full disk's recovery) can
        // still be opened, as SQLite needs them to read a WAL database it may not write.
        var persist: Int32 = 1
        sqlite3_file_control(handle, "main", SQLITE_FCNTL_PERSIST_WAL, &persist)
        return (handle, code)
    }

    /// Opens `writer` and `readers` (of one file; the caller holds them) afresh when SQLite opened
    /// the writer read-only (its folder or file system was): a write may work again now. Returns
    /// whether it did; then the caller sets its connection pragmas again.
    public static func reopenIfReadOnly(writer: Database, readers: [Database]) -> Bool {
        guard writer.isReadOnly, !writer.isInTransaction, !readers.contains(where: \.isInTransaction) else { return false }
        reopen([writer] + readers)
        return true
    }

    /// Closes `connections` (of one file), then opens each again. SQLite opens a file it may not
    /// write (a read-only folder or file system) read-only and shares that among a process's
    /// connections to it: only once all of them are closed can one write again. One that cannot
    /// be opened again fails every call (and counts as read-only).
    private static func reopen(_ connections: [Database]) {
        for connection in connections {
            for statement in connection.statements.values { sqlite3_finalize(statement) }
            connection.statements = [:]
            sqlite3_close_v2(connection.handle)
        }
        for connection in connections {
            connection.handle = connect(connection.path, busyTimeout: connection.busyTimeout).0
        }
    }

    /// Process-wide settings, made once before the first connection opens.
    private static let configured: Bool = csqlite_disable_memory_statistics() == SQLITE_OK

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(handle)
    }

    public func execute(_ sql: String) throws(DatabaseError) {
        var error: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &error)
        guard code == SQLITE_OK else {
            let message = error.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            sqlite3_free(error)
            throw DatabaseError(code: code, message: message, sql: sql)
        }
    }

    /// Puts the database in write-ahead-log mode unless it is already. Asked first, because
    /// setting it again is not free: `PRAGMA journal_mode = WAL` on a WAL database another
    /// process is using can answer SQLITE_BUSY without waiting on the busy handler (`assetfs warm`
    /// beside a mount under load failed to open the cache so).
    public func useWriteAheadLog() throws(DatabaseError) {
        var mode = ""
        try query("PRAGMA journal_mode") { mode = $0.text(0) }
        if mode.lowercased() != "wal" { try execute("PRAGMA journal_mode = WAL") }
    }

    /// The main database file's data version (`SQLITE_FCNTL_DATA_VERSION`): it changes whenever
    /// the file does, by this connection or any other, and is current once a read transaction has
    /// begun. Asking runs no statement.
    public func fileDataVersion() -> UInt32? {
        var version: UInt32 = 0
        return sqlite3_file_control(handle, "main", SQLITE_FCNTL_DATA_VERSION, &version) == SQLITE_OK ? version : nil
    }

    /// How many statements `query` has run on this connection: what a request costs the
    /// database, counted by tests and the benchmarks.
    public private(set) var queryCount = 0

    /// Runs a statement of no rows and no bindings (BEGIN, COMMIT) through the prepared-statement
    /// cache, where `execute` parses its text every time: for what runs around every request.
    /// Transaction control, not counted in `queryCount`.
    public func run(_ sql: String) throws(DatabaseError) {
        let statement = try prepared(sql)
        defer { sqlite3_reset(statement) }
        let code = sqlite3_step(statement)
        guard code == SQLITE_DONE || code == SQLITE_ROW else { throw error(code, sql) }
    }

    /// Runs `sql` with `bindings`, calling `row` for each result row.
    public func query(_ sql: String, _ bindings: [Value] = [], row: (Row) -> Void = { _ in }) throws(DatabaseError) {
        queryCount += 1
        let statement = try prepared(sql)
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        var code = SQLITE_OK
        for (index, value) in bindings.enumerated() {
            let position = Int32(index + 1)
            switch value {
            case .integer(let v): code = sqlite3_bind_int64(statement, position, v)
            case .real(let v): code = sqlite3_bind_double(statement, position, v)
            case .text(let v): code = csqlite_bind_text(statement, position, v)
            case .blob(let v): code = v.withUnsafeBytes { csqlite_bind_blob(statement, position, $0.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32($0.count)) }
            case .null: code = sqlite3_bind_null(statement, position)
            }
            guard code == SQLITE_OK else { throw error(code, sql) }
        }
        while true {
            code = sqlite3_step(statement)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else { throw error(code, sql) }
            row(Row(statement: statement))
        }
    }

    private func prepared(_ sql: String) throws(DatabaseError) -> OpaquePointer {
        if let statement = statements[sql] { return statement }
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard code == SQLITE_OK, let statement else { throw error(code, sql) }
        statements[sql] = statement
        return statement
    }

    /// `sqlite3_blob_open`/`sqlite3_blob_read`: part of one blob, without loading the rest.
    public func readBlob(table: String, column: String, row: Int64, offset: Int, count: Int) throws(DatabaseError) -> [UInt8] {
        var blob: OpaquePointer?
        var code = sqlite3_blob_open(handle, "main", table, column, row, 0, &blob)
        guard code == SQLITE_OK, let blob else { throw error(code, "blob_open \(table).\(column) \(row)") }
        defer { sqlite3_blob_close(blob) }
        let total = Int(sqlite3_blob_bytes(blob))
        let length = max(0, min(count, total - offset))
        guard length > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: length)
        code = bytes.withUnsafeMutableBytes { sqlite3_blob_read(blob, $0.baseAddress, Int32(length), Int32(offset)) }
        guard code == SQLITE_OK else { throw error(code, "blob_read \(table).\(column) \(row)") }
        return bytes
    }

    /// Whether a transaction is open on this connection (`BEGIN` without its `COMMIT` yet).
    public var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// Leaves the write-ahead log as it is when this connection, the last one, closes: SQLite
    /// would otherwise copy the whole log into the file (and sync it) on behalf of a process that
    /// only read, on every run of a short-lived command while no mount holds the file open.
    public func skipCheckpointOnClose() {
        csqlite_no_checkpoint_on_close(handle)
    }

    /// Whether SQLite opened the file read-only (it does when it may not write it: a read-only
    /// folder or file system), which the connection then stays.
    public var isReadOnly: Bool { sqlite3_db_readonly(handle, "main") != 0 }

    /// The rowid of the last row inserted on this connection.
    public var lastInsertedRow: Int64 { sqlite3_last_insert_rowid(handle) }

    public var changes: Int { Int(sqlite3_changes(handle)) }

    private func error(_ code: Int32, _ sql: String) -> DatabaseError {
        DatabaseError(code: code, message: String(cString: sqlite3_errmsg(handle)), sql: sql)
    }

    public enum Value {
        case integer(Int64), real(Double), text(String), blob([UInt8]), null
    }

    /// A result row, valid only inside the `query` callback.
    public struct Row {
        let statement: OpaquePointer
        /// How many columns the statement gives.
        public var columnCount: Int32 { sqlite3_column_count(statement) }
        public func integer(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }
        public func double(_ column: Int32) -> Double { sqlite3_column_double(statement, column) }
        public func isNull(_ column: Int32) -> Bool { sqlite3_column_type(statement, column) == SQLITE_NULL }
        public func text(_ column: Int32) -> String { sqlite3_column_text(statement, column).map { String(cString: $0) } ?? "" }
        public func blob(_ column: Int32) -> [UInt8] {
            let count = Int(sqlite3_column_bytes(statement, column))
            guard count > 0, let bytes = sqlite3_column_blob(statement, column) else { return [] }
            return Array(UnsafeRawBufferPointer(start: bytes, count: count))
        }
    }
}
