import Posix
import SQLiteDatabase

/// How a reader knows, without a statement, that rows it kept (`RecentRows`) are still the
/// catalog's. Every commit to the catalog file, by any process (only `CatalogStore`'s writer
/// commits: the mount's, and that of `warm`, `broken`… run beside it), is counted in a
/// `SharedCounter` beside the catalog, once just before its COMMIT and once after, whether it
/// succeeded or not: the count is odd while a commit may be landing, even otherwise, and never
/// goes back.
///
/// Why rows tagged with an even count `n` are the catalog as it is at `n` (after every commit
/// counted up to `n`, and none later):
/// - A snapshot loads the count before its transaction begins (`n`), and keeps what a statement
///   read only if the count, loaded again after that statement, is still `n`. In between no
///   commit began or ended (each moves the count), and none was under way at the first load (`n`
///   is even); the transaction took its state at its first statement, inside that interval: the
///   catalog at `n`.
/// - A snapshot uses rows tagged `n` only if the count, loaded when it uses them, is `n`: no
///   commit has begun since they were read, so they are what a statement would read then. The
///   first count that moves makes that snapshot ask SQLite's `data_version` instead, and the next
///   one read again. (A commit landing during a request can still give it rows from just before
///   beside rows from after; the writer's process tells the kernel what it changed once it has
///   committed, so nothing answered before stays cached.)
/// - A process that dies between its two counts leaves the count odd: readers then ask
///   `data_version` for good, as they do when the counter file cannot be made (a read-only
///   folder); slower, never wrong.
struct CommitCounter: Sendable {
    private let shared: SharedCounter?

    /// The counter of the catalog at `catalog`: `X.catalog.sqlite-commits` beside it.
    init(catalog: FilePath) {
        shared = try? SharedCounter(path: FilePath(bytes: catalog.bytes + Array("-commits".utf8)))
    }

    /// The count now; nil without a counter.
    var count: UInt64? { shared?.value }

    /// Runs `commit`, the writer's COMMIT, between its two counts.
    func committing<R>(_ commit: () throws(DatabaseError) -> R) throws(DatabaseError) -> R {
        shared?.increment()
        defer { shared?.increment() }
        return try commit()
    }
}
