import Glibc
import SQLiteDatabase

/// The catalog's read connection, used by one thread at a time. `snapshot` keeps one read
/// transaction open across every read its thread makes inside it: a listing and the attributes
/// of its entries come from one state of the catalog, and SQLite takes its locks once (each
/// read on its own took 4 or 5 `fcntl` calls: 15 per READDIRPLUS of an asset folder).
final class ReadConnection: @unchecked Sendable {
    private let database: Database
    /// Recursive: reads inside a snapshot lock again on the same thread.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    /// How deep the holding thread is in `use` and `snapshot` calls (under `mutex`).
    private var depth = 0

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
        depth += 1
        defer {
            depth -= 1
            pthread_mutex_unlock(mutex)
        }
        return try body(database)
    }

    /// Runs `body` with the connection held and, outermost, inside one read transaction.
    func snapshot<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        try use { (database) throws(E) -> R in
            let outermost = depth == 1 && !database.isInTransaction
            if outermost { try? database.execute("BEGIN") }
            defer { if outermost { try? database.execute("COMMIT") } }
            return try body()
        }
    }
}
