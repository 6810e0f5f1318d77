import Catalog
import MountModel
import PhotoSource
import Posix
import SQLiteDatabase

/// Changes of SOURCE: the catalog brought in step with it, folder by folder or whole.
extension AssetFileSystem {
    /// Brings the catalog in step with SOURCE (all of it, or the folders named), telling the
    /// kernel (`whenKernelMustForget`) what it must forget. While SOURCE is away (unplugged, moved, deleted)
    /// the stored tree stays: cached renditions read on, the rest fails fast; when SOURCE is back
    /// at its path it is walked again. Returns whether SOURCE is online.
    @discardableResult
    public func synchronize(_ work: SourceWatcher.Work, watch: @escaping @Sendable (FilePath) -> Void = { _ in },
                            shouldContinue: @escaping @Sendable () -> Bool = { true },
                            progress: (Int) -> Void = { _ in }) -> Bool {
        let statistics = statistics
        let failures = Locked<[FilePath: DatabaseError]>([:])
        let tree = tree, kernel = kernel
        let synchronizer = CatalogSynchronizer(reader: reader, scheduler: scheduler, catalog: catalog, willRead: { folder in
            Statistics.bump(statistics.foldersRead)
            watch(folder)
        }, changed: { kernel(tree.invalidations(for: $0)) }, shouldContinue: shouldContinue, failed: { folder, error in failures.withLock { $0[folder] = error } })
        // What could not be written before is read and applied again with any later change.
        let retried = work == .everything ? work : .folders(work.folders.union(backlog.folders))
        do {
            try checkRootIsThere()
            switch retried {
            case .everything:
                try synchronizer.walk(from: FilePath(bytes: []), everything: true, progress: progress)
            case .folders(let folders):
                try synchronizer.refresh(folders)
            }
            settleBacklog(retried, failures.withLock { $0 }, completing: retried == .everything ? shouldContinue() : backlog.completesScan)
        } catch {
            if online.exchange(false, ordering: .relaxed) {
                Log.warning("\(root): SOURCE is gone (\(error)): unplugged, moved or deleted? Cached renditions stay readable; the rest fails until it is back at this path")
            }
            return false
        }
        if !online.exchange(true, ordering: .relaxed) { Log.info("\(root): SOURCE is back") }
        background.poke()
        return true
    }

    /// SOURCE must be a folder, and not an empty mountpoint an unplugged disk left behind on
    /// another device (which would empty the catalog).
    private func checkRootIsThere() throws(CatalogSynchronizer.Failure) {
        let now: FileStatus
        do { now = try FileStatus(path: root) } catch { throw .sourceUnavailable(error) }
        guard now.isDirectory else { throw .sourceUnavailable(.notDirectory) }
        if rootStatus.inode != 0, now.device != rootStatus.device, catalog.read({ $0.counts.photos }) > 0,
           (try? Directory.entries(of: root).isEmpty) ?? true {
            throw .sourceUnavailable(.notFound)
        }
    }
}
