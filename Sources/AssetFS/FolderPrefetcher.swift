import PhotoSource
import Posix

/// Reads folders ahead of a walk, on a lane of the scheduler, in the order the walk will ask
/// for them: a scan is mostly waiting on the kernel for one file after another, and two readers
/// on two cores nearly halve it, while the walk still applies folders in one fixed order (so
/// names and row ids come out the same on every scan of the same tree). At most `limit` folders
/// are asked for and not yet taken, which bounds the listings held.
final class FolderPrefetcher: Sendable {
    typealias Read = @Sendable (FilePath) -> Result<FolderListing, Errno>

    /// A folder asked for and not yet taken.
    private enum Ahead {
        case queued, reading
        case read(Result<FolderListing, Errno>)
    }

    private let read: Read
    private let limit: Int
    private let readers: Lane
    private let ahead = Locked<[FilePath: Ahead]>([:])

    /// `threads`: how many folders are read at once.
    init(scheduler: Scheduler, threads: Int, limit: Int, read: @escaping Read) {
        self.read = read
        self.limit = limit
        readers = scheduler.lane(width: threads, priority: .upkeep, leftovers: .cancel)
    }

    /// The folders the walk will want next, soonest first: read ahead those not yet asked for,
    /// as far as the limit allows.
    func expect(_ folders: some Sequence<FilePath>) {
        let asked = ahead.withLock { ahead in
            var asked: [FilePath] = []
            for folder in folders {
                guard ahead.count < limit else { break }
                guard ahead[folder] == nil else { continue }
                ahead[folder] = .queued
                asked.append(folder)
            }
            return asked
        }
        for folder in asked { readers.submit(Scheduler.Job(run: { [self] in readAhead(folder) })) }
    }

    /// The listing of `folder`: read ahead, being read (waits), or read now on this thread.
    func take(_ folder: FilePath) -> Result<FolderListing, Errno> {
        let state = ahead.withLock(when: { ahead in
            if case .reading = ahead[folder] { return false }
            return true
        }) { $0.removeValue(forKey: folder) }
        if case .read(let result) = state { return result }
        return read(folder)   // never asked for, or still queued (its job will pass it over)
    }

    /// Stops the readers (what is queued is dropped) and waits for them.
    func finish() {
        readers.close()
        ahead.withLock { $0 = [:] }
    }

    private func readAhead(_ folder: FilePath) {
        let claimed = ahead.withLock { ahead in
            guard case .queued = ahead[folder] else { return false }
            ahead[folder] = .reading
            return true
        }
        guard claimed else { return }
        let result = read(folder)
        ahead.withLock { $0[folder] = .read(result) }
    }
}
