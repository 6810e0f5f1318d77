import Glibc
import Posix
import SQLiteDatabase

/// One of the catalog's read connections (`ReaderPool`), used by one thread at a time. `snapshot` keeps one read
/// transaction open across every read its thread makes inside it: a listing and the attributes
/// of its entries come from one state of the catalog, and SQLite takes its locks once (each
/// read on its own took 4 or 5 `fcntl` calls: 15 per READDIRPLUS of an asset folder).
///
/// Rows read by id are kept while SQLite's `data_version` stays the same, i.e. until anyone (this
/// process's writer, another process) commits: a request resolves a row once, a listing's
/// entries come from its page, and a walk of the mount (`find`, `ls -lR`, NFS) asks for the same
/// few rows several times per entry.
final class ReadConnection: @unchecked Sendable {
    let database: Database
    /// Recursive: reads inside a snapshot lock again on the same thread.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    /// The outermost snapshot's state (under `mutex`); nil outside one.
    private var current: Snapshot?
    /// Rows read lately, valid for one `data_version` (under `mutex`).
    private var recent = RecentRows()

    /// What one snapshot learnt: the database's `data_version` (asked once, it cannot change
    /// inside a read transaction) and whether any read failed.
    private struct Snapshot {
        /// `Database.queryCount` when it began: a statement run since has begun its read transaction.
        var queriesBefore: Int
        var dataVersion: Int64?
        var failed = false
    }

    init(_ database: Database) {
        self.database = database
        mutex = .allocate(capacity: 1)
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
        pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func use<R, E: Error>(_ body: (Database) throws(E) -> R) throws(E) -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(database)
    }

    /// Runs `body` with the connection held and, outermost, inside one read transaction.
    func snapshot<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        var failed = false
        return try scoped(failed: &failed, body)
    }

    /// Runs `body` as `snapshot` does; false when a read inside it failed (the caller answers
    /// EIO, not "nothing there"). Nested in another snapshot, the outermost one decides.
    func request(_ body: () -> Void) -> Bool {
        var failed = false
        scoped(failed: &failed, body)
        return !failed
    }

    /// The outermost snapshot on this connection begins and ends its read transaction (however
    /// deep in `use` it is called: a read takes the connection, then its snapshot). A transaction
    /// that cannot begin or end fails the snapshot, and says why once in the log.
    private func scoped<R, E: Error>(failed: inout Bool, _ body: () throws(E) -> R) throws(E) -> R {
        try use { (database) throws(E) -> R in
            guard current == nil && !database.isInTransaction else { return try body() }
            var begun = true
            do throws(DatabaseError) { try database.run("BEGIN") } catch { begun = false; transactionFailed(error, database) }
            current = Snapshot(queriesBefore: database.queryCount, failed: !begun)
            defer {
                do throws(DatabaseError) { try database.run("COMMIT") } catch { transactionFailed(error, database) }
                failed = current?.failed ?? false
                current = nil
            }
            return try body()
        }
    }

    /// A read transaction that could not begin or end: the snapshot's reads are not one state of
    /// the catalog, so it fails; no transaction is left open.
    private func transactionFailed(_ error: DatabaseError, _ database: Database) {
        current?.failed = true
        Log.warning("catalog: a read transaction failed: \(error)")
        if database.isInTransaction { try? database.run("ROLLBACK") }
    }

    /// Lets the snapshot this thread is in (if any) see what was committed since it began: what
    /// its own request just stored. A failure so far still counts.
    func renewSnapshot() {
        use { database in
            guard let snapshot = current else { return }
            var renewed = true
            do throws(DatabaseError) { try database.run("COMMIT"); try database.run("BEGIN") } catch { renewed = false; transactionFailed(error, database) }
            current = Snapshot(queriesBefore: database.queryCount, failed: snapshot.failed || !renewed)
        }
    }

    /// Whether the calling thread is inside a snapshot (another thread's, if any, is waited out).
    var isInSnapshot: Bool { use { _ in current != nil } }

    /// Notes that a read failed (called with the connection held).
    func readFailed() { current?.failed = true }

    /// The catalog file's data version as this snapshot sees it (called with the connection
    /// held): it changes when anyone commits. Asked once per snapshot, and without a statement
    /// once one has run in it (its read transaction has begun, so the pager's count is current);
    /// before that, `PRAGMA data_version` begins it.
    func dataVersion() throws(DatabaseError) -> Int64 {
        if let known = current?.dataVersion { return known }
        if current.map({ database.queryCount == $0.queriesBefore }) ?? true { try database.query("PRAGMA data_version") }
        guard let version = database.fileDataVersion() else { throw DatabaseError(code: 1, message: "no data version", sql: "SQLITE_FCNTL_DATA_VERSION") }
        current?.dataVersion = Int64(version)
        return Int64(version)
    }

    /// This snapshot's data version if it costs no statement to learn (one has run in it).
    private func dataVersionWithoutAsking() -> Int64? {
        guard let snapshot = current else { return nil }
        if let known = snapshot.dataVersion { return known }
        guard database.queryCount > snapshot.queriesBefore, let version = database.fileDataVersion() else { return nil }
        current?.dataVersion = Int64(version)
        return Int64(version)
    }

    /// The photo `id` if read lately (called with the connection held, in a snapshot).
    func recentPhoto(_ id: Int64) throws(DatabaseError) -> CatalogStore.PhotoRow? {
        recent.forget(unlessAt: try dataVersion())
        return recent.photos[id]
    }

    /// The folder `id` if read lately (called with the connection held, in a snapshot).
    func recentFolder(_ id: Int64) throws(DatabaseError) -> CatalogStore.Folder? {
        recent.forget(unlessAt: try dataVersion())
        return recent.folders[id]
    }

    /// The view folder `id` if read lately (called with the connection held, in a snapshot).
    func recentViewFolder(_ id: Int64) throws(DatabaseError) -> CatalogStore.ViewFolderRow? {
        recent.forget(unlessAt: try dataVersion())
        return recent.viewFolders[id]
    }

    /// The view member `id` if read lately (called with the connection held, in a snapshot).
    func recentViewMember(_ id: Int64) throws(DatabaseError) -> CatalogStore.ViewMemberRow? {
        recent.forget(unlessAt: try dataVersion())
        return recent.viewMembers[id]
    }

    /// Keeps rows read in this snapshot (called with the connection held, after the query that
    /// read them) for this snapshot and later ones, while the data version stays.
    func keep(photos: [CatalogStore.PhotoRow] = [], folders: [CatalogStore.Folder] = [],
              viewFolders: [CatalogStore.ViewFolderRow] = [], viewMembers: [CatalogStore.ViewMemberRow] = []) {
        guard let version = dataVersionWithoutAsking() else { return }
        recent.forget(unlessAt: version)
        for photo in photos { recent.keep(photo: photo) }
        for folder in folders { recent.keep(folder: folder) }
        for folder in viewFolders { RecentRows.keep(&recent.viewFolders, folder.id, folder) }
        for member in viewMembers { RecentRows.keep(&recent.viewMembers, member.id, member) }
    }

    /// Forgets the rows of earlier snapshots (the connection was opened again: `data_version` counts per connection).
    func forgetRecentRows() { use { _ in recent = RecentRows() } }

    /// How many statements this connection has run (`Database.queryCount`).
    var queryCount: Int { use { $0.queryCount } }
}

/// Rows the catalog's read connection read lately, for one `data_version` of the database; bounded.
struct RecentRows {
    private var version: Int64 = -1
    private(set) var photos: [Int64: CatalogStore.PhotoRow] = [:]
    private(set) var folders: [Int64: CatalogStore.Folder] = [:]
    var viewFolders: [Int64: CatalogStore.ViewFolderRow] = [:]
    var viewMembers: [Int64: CatalogStore.ViewMemberRow] = [:]
    private static let limit = 4096

    /// Empties it if the database changed since its rows were read.
    mutating func forget(unlessAt dataVersion: Int64) {
        guard dataVersion != version else { return }
        version = dataVersion
        photos.removeAll(keepingCapacity: true)
        folders.removeAll(keepingCapacity: true)
        viewFolders.removeAll(keepingCapacity: true)
        viewMembers.removeAll(keepingCapacity: true)
    }

    /// Keeps `row` under `id` in `rows`, emptied first when full.
    static func keep<Row>(_ rows: inout [Int64: Row], _ id: Int64, _ row: Row) {
        if rows.count >= limit { rows.removeAll(keepingCapacity: true) }
        rows[id] = row
    }

    mutating func keep(photo: CatalogStore.PhotoRow) {
        if photos.count >= Self.limit { photos.removeAll(keepingCapacity: true) }
        photos[photo.id] = photo
    }

    mutating func keep(folder: CatalogStore.Folder) {
        if folders.count >= Self.limit { folders.removeAll(keepingCapacity: true) }
        folders[folder.id] = folder
    }
}
