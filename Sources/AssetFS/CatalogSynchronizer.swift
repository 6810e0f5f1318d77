import Catalog
import MountModel
import Foundation
import Glibc
import PhotoSource
import Posix
import SQLiteDatabase

/// Brings the persisted catalog in step with SOURCE, folder by folder: reads a folder
/// (`FolderReader`, which re-sniffs only files whose identity changed), applies it
/// (`CatalogStore.apply`) and tells the kernel what went stale. A first scan, a verification and
/// an event's refresh are the same walk; an event's walks only the folders it names and the
/// folders new under them, so a change costs what it touches.
struct CatalogSynchronizer: Sendable {
    let reader: FolderReader
    /// Where a whole walk reads ahead and writes.
    let scheduler: Scheduler
    let catalog: CatalogStore
    /// Called before a folder is read (the watcher watches it from then on).
    let willRead: @Sendable (FilePath) -> Void
    /// Where what changed goes (to the kernel, as what it must forget).
    let changed: @Sendable ([CatalogChange]) -> Void
    /// Whether to go on (false once the mount is stopping).
    let shouldContinue: @Sendable () -> Bool
    /// A folder whose change could not be written (`CatalogBacklog` keeps it to try again).
    let failed: @Sendable (FilePath, DatabaseError) -> Void

    enum Failure: Error { case sourceUnavailable(Errno) }

    /// Walks from folder `start`: into every subfolder (`everything`), or only into new ones.
    /// Throws when `start` is the root and cannot be read (SOURCE is away). A whole walk reads
    /// folders ahead (`FolderPrefetcher`) while a serial lane applies them, in the
    /// walk's own order (a parent before its children): reading and writing overlap on every core.
    func walk(from start: FilePath, everything: Bool, progress: (Int) -> Void = { _ in }) throws(Failure) {
        let writer = everything ? OrderedWriter(scheduler: scheduler, batch: catalog.batch, failed: failed) : nil
        defer { writer?.finish() }
        let read: FolderPrefetcher.Read = { [reader, catalog, willRead] relative in
            willRead(relative)
            return Result { () throws(Errno) in try reader.read(relative, known: catalog.read { $0.knownIdentities(in: relative) }) }
        }
        let prefetcher = everything ? FolderPrefetcher(scheduler: scheduler, threads: Self.readers, limit: 4 * Self.readers, read: read) : nil
        defer { prefetcher?.finish() }
        var stack = [(start, inheritedPermissions(of: start))]
        var visited: Set<[UInt64]> = []
        var folders = 0
        while let (relative, inherited) = stack.popLast(), shouldContinue() {
            let listing: FolderListing
            switch prefetcher?.take(relative) ?? read(relative) {
            case .success(let found): listing = found
            case .failure(let error):
                if relative.isEmpty { throw .sourceUnavailable(error) }
                if error == .notFound || error == .notDirectory {
                    write(relative, on: writer) { () throws(DatabaseError) in try catalog.removeFolder(relative) }
                } else {
                    Log.warning("\(reader.root.appending(relative)): cannot list folder (\(error)), skipped")
                }
                continue
            }
            // A folder reached twice (a link back into the tree) is read once.
            guard visited.insert([listing.status.device, listing.status.inode]).inserted else { continue }
            if everything {
                let permissions = inherited & listing.status.permissions & 0o555
                stack += listing.subfolders.reversed().map { (relative.appending($0.name), permissions) }
                prefetcher?.expect(stack.reversed().lazy.map(\.0))
                write(relative, on: writer) { () throws(DatabaseError) in
                    try catalog.apply(listing, at: relative, inheritedPermissions: inherited).changes
                }
            } else {
                do {
                    let update = try catalog.apply(listing, at: relative, inheritedPermissions: inherited)
                    changed(update.changes)
                    stack += update.subfolders.filter(\.isNew).map { ($0.path, update.permissions) }.reversed()
                } catch {
                    failed(relative, error)
                }
            }
            folders += 1
            progress(folders)
        }
    }

    /// Folders read ahead at once in a whole walk: one per core (the writer shares them; the
    /// kernel's work per file is most of a scan), at most 4.
    static let readers = max(1, min(4, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))))

    /// Brings `folders` up to date (an event named them); a folder gone is removed with its subtree.
    func refresh(_ folders: Set<FilePath>) throws(Failure) {
        // Parents first: a parent's walk may already cover (or remove) a child named too.
        for folder in folders.sorted(by: { $0.bytes.count < $1.bytes.count }) {
            guard folder.isEmpty || catalog.read({ $0.folder(at: folder.parent) != nil || $0.folder(at: folder) != nil }) else { continue }
            try walk(from: folder, everything: false)
        }
    }

    /// What folder `relative` inherits from the folders above it (stored with its parent).
    private func inheritedPermissions(of relative: FilePath) -> UInt32 {
        guard !relative.isEmpty else { return 0o555 }
        return catalog.read { $0.folder(at: relative.parent)?.ownership.permissions } ?? 0o555
    }

    /// Applies `change` of `folder` now (no writer), or queues it on `writer`.
    private func write(_ folder: FilePath, on writer: OrderedWriter?, _ change: @escaping @Sendable () throws(DatabaseError) -> [CatalogChange]) {
        let work: @Sendable () -> Void = { [changed, failed] in
            do throws(DatabaseError) { changed(try change()) } catch { failed(folder, error) }
        }
        if let writer { writer.enqueue(folder, work) } else { work() }
    }
}

/// Runs queued work on a serial lane, in order, what is queued at a time inside one `batch`; the
/// queue is bounded, so a reader far ahead waits instead of holding every listing in memory.
/// A batch that cannot be committed fails each of its folders.
private final class OrderedWriter: Sendable {
    typealias Batch = @Sendable (() -> Void) throws(DatabaseError) -> Void
    private let batch: Batch
    private let failed: @Sendable (FilePath, DatabaseError) -> Void
    private let lane: Lane
    private let pending = Locked(Pending())
    private static let limit = 64

    private struct Pending {
        var works: [(folder: FilePath, work: @Sendable () -> Void)] = []
        /// Whether a job to write them is queued (one at a time: it takes all there are).
        var isQueued = false
    }

    init(scheduler: Scheduler, batch: @escaping Batch, failed: @escaping @Sendable (FilePath, DatabaseError) -> Void) {
        self.batch = batch
        self.failed = failed
        lane = scheduler.lane(width: 1, priority: .upkeep, leftovers: .run)
    }

    func enqueue(_ folder: FilePath, _ work: @escaping @Sendable () -> Void) {
        let queueJob = pending.withLock(when: { $0.works.count < Self.limit }) { pending in
            pending.works.append((folder, work))
            defer { pending.isQueued = true }
            return !pending.isQueued
        }
        // Refused (the scheduler has shut down): written here and now, never lost.
        if queueJob { lane.submit(Scheduler.Job(run: { [self] in writePending() }, cancel: { [self] in writePending() })) }
    }

    /// Waits until everything queued has run.
    func finish() { lane.close() }

    private func writePending() {
        let works = pending.withLock { pending in
            defer { pending = Pending() }
            return pending.works
        }
        do { try batch { for queued in works { queued.work() } } } catch {
            for queued in works { failed(queued.folder, error) }
        }
    }
}
