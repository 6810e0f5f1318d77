import Foundation
import PhotoSource
import Posix

/// Reads folders ahead of a walk, on a `WorkerPool` of its own, in the order the walk will ask
/// for them: a scan is mostly waiting on the kernel for one file after another, and two readers
/// on two cores nearly halve it, while the walk still applies folders in one fixed order (so
/// names and row ids come out the same on every scan of the same tree). At most `limit` folders
/// are asked for and not yet taken, which bounds the listings held.
final class FolderPrefetcher: @unchecked Sendable {
    typealias Read = @Sendable (FilePath) -> Result<FolderListing, Errno>

    /// A folder asked for and not yet taken.
    private enum Ahead {
        case queued, reading
        case read(Result<FolderListing, Errno>)
    }

    private let read: Read
    private let limit: Int
    private let pool: WorkerPool
    private let condition = NSCondition()
    private var ahead: [FilePath: Ahead] = [:]

    init(threads: Int, limit: Int, read: @escaping Read) {
        self.read = read
        self.limit = limit
        pool = WorkerPool(threads: threads, name: "assetfs-scan")
    }

    /// The folders the walk will want next, soonest first: read ahead those not yet asked for,
    /// as far as the limit allows.
    func expect(_ folders: some Sequence<FilePath>) {
        condition.lock()
        defer { condition.unlock() }
        for folder in folders {
            guard ahead.count < limit else { break }
            guard ahead[folder] == nil else { continue }
            ahead[folder] = .queued
            pool.submit(WorkerPool.Job(run: { [self] in readAhead(folder) }, cancel: {}))
        }
    }

    /// The listing of `folder`: read ahead, being read (waits), or read now on this thread.
    func take(_ folder: FilePath) -> Result<FolderListing, Errno> {
        condition.lock()
        while case .reading = ahead[folder] { condition.wait() }
        let state = ahead.removeValue(forKey: folder)
        condition.unlock()
        if case .read(let result) = state { return result }
        return read(folder)   // never asked for, or still queued (its job will pass it over)
    }

    /// Stops the readers (what is queued is dropped) and waits for them.
    func finish() {
        pool.shutdown()
        condition.lock()
        ahead = [:]
        condition.unlock()
    }

    private func readAhead(_ folder: FilePath) {
        condition.lock()
        guard case .queued = ahead[folder] else { return condition.unlock() }
        ahead[folder] = .reading
        condition.unlock()
        let result = read(folder)
        condition.lock()
        ahead[folder] = .read(result)
        condition.broadcast()
        condition.unlock()
    }
}
