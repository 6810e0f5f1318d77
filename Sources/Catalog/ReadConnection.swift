import Glibc
import Posix
import SQLiteDatabase
import Synchronization

/// One of the catalog's read connections (`ReaderPool`), held by one thread at a time. A
/// `CatalogSnapshot` is one read transaction on it: every read made through the snapshot sees the
/// same committed tree, and SQLite takes its locks once for all of them (each read on its own took
/// 4 or 5 `fcntl` calls: 15 per READDIRPLUS of an asset folder).
///
/// Rows read are kept until anyone (this process's writer, another process's) commits, which the
/// catalog's `CommitCounter` tells without a statement (else SQLite's `data_version`, asked by
/// one): a request resolves a row once, a listing's entries come from its page, and a walk of the
/// mount (`find`, `ls -lR`, NFS) asks for the same few rows several times per entry.
final class ReadConnection: @unchecked Sendable {
    let database: Database
    /// The catalog file, for the log.
    let path: FilePath
    /// The open snapshot's state; nil outside one.
    private var current: Snapshot?
    /// Rows read lately, valid for one state of the catalog (`RecentRows.Validity`).
    private var recent = RecentRows()
    private let commits: CommitCounter
    /// Statements run by the snapshots that have ended: read by other threads (the counts of
    /// tests and benchmarks), written by the one holding the connection.
    private let statementsRun = Atomic<Int>(0)

    /// What one snapshot learnt: the commit count it began at, the database's `data_version`
    /// (asked once, it cannot change inside a read transaction) and whether any read failed.
    private struct Snapshot {
        /// `Database.queryCount` when it began: a statement run since has begun its read transaction.
        var queriesBefore: Int
        /// The even commit count loaded before its transaction began; nil once the count has
        /// moved (or was odd, or there is no counter): `data_version` tells then.
        var commits: UInt64?
        var dataVersion: Int64?
        var failed = false

        init(queriesBefore: Int, commits: UInt64?, failed: Bool) {
            self.queriesBefore = queriesBefore
            self.commits = commits.flatMap { $0 % 2 == 0 ? $0 : nil }
            self.failed = failed
        }
    }

    /// A connection to the catalog at `path`, with its own mapping of the catalog's commit count.
    init(_ database: Database, path: FilePath) {
        self.database = database
        self.path = path
        commits = CommitCounter(catalog: path)
    }

    /// Runs `body` inside one read transaction, handing it the snapshot; returns whether a read in
    /// it failed (or the transaction could not begin or end: its reads were then not one state of
    /// the catalog). Called by the thread holding the connection, never inside another. Not
    /// generic: Swift 6.3's optimizer crashes specialising a generic one that makes the
    /// non-copyable snapshot ("Cannot initialize a nonCopyable type with a guaranteed value").
    func snapshot(_ body: (borrowing CatalogSnapshot) -> Void) -> Bool {
        var begun = true
        let count = commits.count  // before the transaction: see `CommitCounter`
        do throws(DatabaseError) { try database.run("BEGIN") } catch { begun = false; transactionFailed(error) }
        current = Snapshot(queriesBefore: database.queryCount, commits: count, failed: !begun)
        body(CatalogSnapshot(self))
        if begun { do throws(DatabaseError) { try database.run("COMMIT") } catch { transactionFailed(error) } }
        let failed = current?.failed ?? true
        current = nil
        statementsRun.store(database.queryCount, ordering: .relaxed)
        return failed
    }

    /// A read transaction that could not begin or end: the snapshot's reads are not one state of
    /// the catalog, so it fails; no transaction is left open.
    private func transactionFailed(_ error: DatabaseError) {
        current?.failed = true
        Log.warning("\(path): a catalog read transaction failed: \(error)")
        if database.isInTransaction { try? database.run("ROLLBACK") }
    }

    /// Lets the open snapshot see what was committed since it began: what its own request just
    /// stored. A failure so far still counts.
    func renewSnapshot() {
        guard let snapshot = current else { return }
        var renewed = true
        let count = commits.count
        do throws(DatabaseError) { try database.run("COMMIT"); try database.run("BEGIN") } catch { renewed = false; transactionFailed(error) }
        current = Snapshot(queriesBefore: database.queryCount, commits: count, failed: snapshot.failed || !renewed)
    }

    /// Notes that a read of the open snapshot failed, and says why in the log.
    func readFailed(_ error: DatabaseError) {
        Log.warning("\(path): catalog read failed: \(error)")
        current?.failed = true
    }

    /// The catalog file's data version as this snapshot sees it: it changes when anyone commits.
    /// Asked once per snapshot, and without a statement once one has run in it (its read
    /// transaction has begun, so the pager's count is current); before that, `PRAGMA
    /// data_version` begins it.
    private func dataVersion() throws(DatabaseError) -> Int64 {
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

    /// The commit count this snapshot began at, if it has not moved since (`CommitCounter`): one
    /// load of shared memory, no statement. Once it has, nil for the rest of the snapshot.
    private func unmovedCommitCount() -> UInt64? {
        guard let began = current?.commits else { return nil }
        if commits.count == began { return began }
        current?.commits = nil
        return nil
    }

    /// The commit count this snapshot reads, while nobody has committed since it began and none
    /// of its reads failed; else nil.
    var soundCommitCount: UInt64? { snapshotHasFailed ? nil : unmovedCommitCount() }

    /// Whether a read of the open snapshot has failed (or there is none).
    var snapshotHasFailed: Bool { current?.failed ?? true }

    /// Which state of the catalog this snapshot reads: its commit count while unmoved, else its
    /// data version (nil if learning it needs a statement and `asking` is false).
    private func validity(asking: Bool) throws(DatabaseError) -> RecentRows.Validity? {
        if let count = unmovedCommitCount() { return .commits(count) }
        if asking { return .dataVersion(try dataVersion()) }
        return dataVersionWithoutAsking().map { .dataVersion($0) }
    }

    /// The row under `key` in `rows` (photos, folders, view folders or members by id, view
    /// folders by name) if read lately (in a snapshot).
    func recent<Key, Row>(_ rows: KeyPath<RecentRows, KeptRows<Key, Row>>, _ key: Key) throws(DatabaseError) -> Row? {
        guard let validity = try validity(asking: true) else { return nil }
        recent.forget(unlessValidFor: validity)
        return recent[keyPath: rows][key]
    }

    /// Keeps rows read in this snapshot (after the query that read them) for this snapshot and
    /// later ones, while no commit lands.
    func keep(photos: [CatalogStore.PhotoRow] = [], folders: [CatalogStore.Folder] = [],
              viewFolders: [CatalogStore.ViewFolderRow] = [], viewMembers: [CatalogStore.ViewMemberRow] = []) {
        guard let validity = try? validity(asking: false) else { return }
        recent.forget(unlessValidFor: validity)
        for photo in photos { recent.photos.keep(photo, under: photo.id) }
        for folder in folders { recent.folders.keep(folder, under: folder.id) }
        for folder in viewFolders {
            recent.viewFolders.keep(folder, under: folder.id)
            recent.viewFolderNames.keep(folder, under: folder.nameInParent)
        }
        for member in viewMembers { recent.viewMembers.keep(member, under: member.id) }
    }

    /// Forgets the rows of earlier snapshots (the connection was opened again: `data_version`
    /// counts per connection). Called with the connection idle.
    func forgetRecentRows() { recent = RecentRows() }

    /// How many statements this connection's ended snapshots have run (`Database.queryCount`).
    var queryCount: Int { statementsRun.load(ordering: .relaxed) }
}

/// Rows the catalog's read connection read lately, for one state of the catalog; bounded.
struct RecentRows {
    /// Which state of the catalog the rows are of: a commit count, or a `data_version`.
    enum Validity: Equatable {
        case commits(UInt64)
        case dataVersion(Int64)
    }

    private var validity: Validity?
    var photos = KeptRows<Int64, CatalogStore.PhotoRow>()
    var folders = KeptRows<Int64, CatalogStore.Folder>()
    var viewFolders = KeptRows<Int64, CatalogStore.ViewFolderRow>()
    var viewFolderNames = KeptRows<CatalogStore.ViewFolderName, CatalogStore.ViewFolderRow>()
    var viewMembers = KeptRows<Int64, CatalogStore.ViewMemberRow>()

    /// Empties it if the catalog changed since its rows were read.
    mutating func forget(unlessValidFor now: Validity) {
        guard now != validity else { return }
        validity = now
        photos.removeAll()
        folders.removeAll()
        viewFolders.removeAll()
        viewFolderNames.removeAll()
        viewMembers.removeAll()
    }
}

/// Rows of one kind by key, the latest `limit` to `2 × limit` kept: when the newer generation is
/// full it becomes the older and the oldest go. The rows just read (a listing's page, whose
/// entries the walk enters next) stay, which emptying all when full did not promise.
struct KeptRows<Key: Hashable, Row> {
    private var newer: [Key: Row] = [:]
    private var older: [Key: Row] = [:]
    static var limit: Int { 4096 }

    subscript(key: Key) -> Row? { newer[key] ?? older[key] }

    mutating func keep(_ row: Row, under key: Key) {
        if newer.count >= Self.limit {
            swap(&newer, &older)
            newer.removeAll(keepingCapacity: true)
        }
        newer[key] = row
    }

    mutating func removeAll() {
        newer.removeAll(keepingCapacity: true)
        older.removeAll(keepingCapacity: true)
    }
}
