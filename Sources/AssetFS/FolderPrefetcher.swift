import Foundation
import PhotoSource
import Posix

/// Reads folders ahead of a walk, on threads of its own, in the order the walk will ask for them:
/// a scan is mostly waiting on the kernel for one file after another, and two readers on two
/// cores nearly halve it, while the walk still applies folders in one fixed order (so names and
/// row ids come out the same on every scan of the same tree). At most `limit` listings are
/// read ahead and not yet taken, which bounds the memory they hold.
final class FolderPrefetcher: @unchecked Sendable {
    typealias Read = @Sendable (FilePath) -> Result<FolderListing, Errno>

    private let read: Read
    private let limit: Int
    private let condition = NSCondition()
    private var pending: [FilePath] = []
    private var reading: Set<FilePath> = []
    private var done: [FilePath: Result<FolderListing, Errno>] = [:]
    private var stopping = false
    private var running: Int

    init(threads: Int, limit: Int, read: @escaping Read) {
        self.read = read
        self.limit = limit
        running = threads
        for index in 0..<threads {
            let thread = Thread { [self] in work() }
            thread.name = "assetfs-scan-\(index)"
            thread.start()
        }
    }

    /// The folders the walk will want next, soonest first: read ahead those not yet asked for,
    /// as far as the limit allows.
    func expect(_ folders: some Sequence<FilePath>) {
        condition.lock()
        defer { condition.unlock() }
        for folder in folders {
            guard pending.count + reading.count + done.count < limit else { break }
            guard done[folder] == nil, !reading.contains(folder), !pending.contains(folder) else { continue }
            pending.append(folder)
        }
        condition.broadcast()
    }

    /// The listing of `folder`: read ahead, being read (waits), or read now on this thread.
    func take(_ folder: FilePath) -> Result<FolderListing, Errno> {
        condition.lock()
        while reading.contains(folder) { condition.wait() }
        if let result = done.removeValue(forKey: folder) {
            condition.broadcast()
            condition.unlock()
            return result
        }
        pending.removeAll { $0 == folder }
        condition.unlock()
        return read(folder)
    }

    /// Stops the threads (what they were reading is dropped) and waits for them.
    func finish() {
        condition.lock()
        stopping = true
        condition.broadcast()
        while running > 0 { condition.wait() }
        done = [:]
        condition.unlock()
    }

    private func work() {
        Signals.blockTerminationInCurrentThread()
        condition.lock()
        while true {
            while pending.isEmpty && !stopping { condition.wait() }
            if stopping { break }
            let folder = pending.removeFirst()
            reading.insert(folder)
            condition.unlock()
            let result = read(folder)
            condition.lock()
            reading.remove(folder)
            done[folder] = result
            condition.broadcast()
        }
        running -= 1
        condition.broadcast()
        condition.unlock()
    }
}
