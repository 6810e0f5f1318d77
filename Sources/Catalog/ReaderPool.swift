import Dispatch
import Glibc
import Posix
import SQLiteDatabase

/// The catalog's readers: a few connections, as GRDB's DatabasePool has beside its one writer, so
/// the FUSE threads (and the background's) read side by side instead of queueing on one
/// connection. A thread takes a connection for the whole of its outermost `use` (a request's
/// snapshot, a listing): every read nested in it runs on that connection and its snapshot. Free
/// connections are handed out last-in first-out, so one thread reading alone keeps meeting the
/// connection whose recent rows it filled.
final class ReaderPool: Sendable {
    private let connections: [ReadConnection]
    private let available: DispatchSemaphore
    /// A pthread mutex (`Locked`), which ThreadSanitizer sees; it took `Synchronization.Mutex`'s
    /// futex for no lock at all and reported the pool's bookkeeping as a race.
    private let state: Locked<State>

    private struct State {
        var free: [Int]
        /// The connection each thread holds (by `pthread_self`).
        var held: [pthread_t: Int] = [:]
    }

    init(_ databases: [Database]) {
        connections = databases.map(ReadConnection.init)
        available = DispatchSemaphore(value: databases.count)
        state = Locked(State(free: Array(databases.indices.reversed())))
    }

    /// How many connections a catalog reads through: the FUSE threads a mount serves with, so a
    /// request never waits for another's reads.
    static let size = 4

    /// Runs `body` on the connection this thread holds, taking a free one (waiting for one if
    /// all are in use) when it holds none.
    func withConnection<R, E: Error>(_ body: (ReadConnection) throws(E) -> R) throws(E) -> R {
        let thread = pthread_self()
        if let index = state.withLock({ $0.held[thread] }) { return try body(connections[index]) }
        available.wait()
        let index = state.withLock { state in
            let index = state.free.removeLast()
            state.held[thread] = index
            return index
        }
        defer {
            state.withLock { state in
                state.held[thread] = nil
                state.free.append(index)
            }
            available.signal()
        }
        return try body(connections[index])
    }

    /// The connection this thread holds, if any (nothing is taken).
    var held: ReadConnection? { state.withLock { $0.held[pthread_self()] }.map { connections[$0] } }

    /// Runs `body` with every connection, if none is in use (by any thread, this one included):
    /// SQLite's read-only state of a file is shared by all of a process's connections, so only
    /// all of them closed at once can reopen it writable. Returns false, running nothing, when one is busy.
    func withEveryConnectionIdle(_ body: ([Database]) -> Void) -> Bool {
        var taken = 0
        while taken < connections.count, available.wait(timeout: .now()) == .success { taken += 1 }
        defer { for _ in 0..<taken { available.signal() } }
        guard taken == connections.count else { return false }
        connections.forEach { $0.forgetRecentRows() }
        body(connections.map(\.database))
        return true
    }

    /// Statements run by every connection: what requests cost the catalog.
    var queryCount: Int { connections.reduce(0) { $0 + $1.queryCount } }
}
