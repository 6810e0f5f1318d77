import Dispatch
import Glibc
import Posix
import SQLiteDatabase

/// The catalog's readers: a few connections, as GRDB's DatabasePool has beside its one writer, so
/// the FUSE threads (and the background's) read side by side instead of queueing on one
/// connection. A thread takes a connection for one snapshot (`CatalogStore.read`), whose reads
/// all go through the snapshot it was handed; it takes no second one meanwhile (that would be
/// another state of the catalog, and with every connection so held, a deadlock). Free
/// connections are handed out last-in first-out, so one thread reading alone keeps meeting the
/// connection whose recent rows it filled.
final class ReaderPool: Sendable {
    private let connections: [ReadConnection]
    private let available: DispatchSemaphore
    /// The free connections' indices. A pthread mutex (`Locked`), which ThreadSanitizer sees; it
    /// took `Synchronization.Mutex`'s futex for no lock at all and reported a race.
    private let free: Locked<[Int]>
    /// The thread-specific slot, set while the thread holds a connection: what tells a snapshot
    /// taken inside another on the same thread.
    private let heldSlot: pthread_key_t

    init(_ databases: [Database], path: FilePath) {
        connections = databases.map { ReadConnection($0, path: path) }
        available = DispatchSemaphore(value: databases.count)
        free = Locked(Array(databases.indices.reversed()))
        var slot = pthread_key_t()
        precondition(pthread_key_create(&slot, nil) == 0, "no thread-specific slot left for the catalog's readers")
        heldSlot = slot
    }

    deinit { pthread_key_delete(heldSlot) }

    /// How many connections a catalog reads through: the FUSE threads a mount serves with, so a
    /// request never waits for another's reads.
    static let size = 4

    /// Runs `body` on a free connection, waiting for one if all are in use. A thread already
    /// holding one is a read that should have been given the snapshot it is in: a fault.
    func withConnection<R, E: Error>(_ body: (ReadConnection) throws(E) -> R) throws(E) -> R {
        precondition(pthread_getspecific(heldSlot) == nil, "a catalog snapshot taken inside another on the same thread: pass it the snapshot")
        available.wait()
        let index = free.withLock { $0.removeLast() }
        pthread_setspecific(heldSlot, UnsafeRawPointer(bitPattern: 1))
        defer {
            pthread_setspecific(heldSlot, nil)
            free.withLock { $0.append(index) }
            available.signal()
        }
        return try body(connections[index])
    }

    /// Runs `body` with every connection, if none is in use (by any thread, this one included):
    /// SQLite's read-only state of a file is shared by all of a process's connections, so only
    /// all of them closed at once can reopen it writable. Returns false, running nothing, when one is busy.
    func withEveryConnectionIdle(_ body: ([Database]) -> Void) -> Bool {
        var taken = 0
        while taken < connections.count, available.wait(timeout: .now()) == .success { taken += 1 }
        defer { for _ in 0..<taken { available.signal() } }
        guard taken == connections.count else { return false }
        // Under the lock each connection was handed back with, so that its last holder's use of
        // it visibly comes first (to ThreadSanitizer too: it does not see through the semaphore).
        free.withLock { _ in
            connections.forEach { $0.forgetRecentRows() }
            body(connections.map(\.database))
        }
        return true
    }

    /// Statements run by every connection: what requests cost the catalog.
    var queryCount: Int { connections.reduce(0) { $0 + $1.queryCount } }
}
