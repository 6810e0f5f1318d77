import Catalog
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
    let catalog: CatalogStore
    /// Called before a folder is read (the watcher watches it from then on).
    let willRead: @Sendable (FilePath) -> Void
    /// Where invalidations go (the kernel, through the FUSE session).
    let invalidate: @Sendable ([Invalidation]) -> Void
    /// Whether to go on (false once the mount is stopping).
    let shouldContinue: @Sendable () -> Bool

    enum Failure: Error { case sourceUnavailable(Errno) }

    /// Walks from folder `start`: into every subfolder (`everything`), or only into new ones.
    /// Throws when `start` is the root and cannot be read (SOURCE is away).
    func walk(from start: FilePath, everything: Bool, progress: (Int) -> Void = { _ in }) throws(Failure) {
        var stack = [(start, inheritedPermissions(of: start))]
        var visited: Set<[UInt64]> = []
        var folders = 0
        while let (relative, inherited) = stack.popLast(), shouldContinue() {
            willRead(relative)
            let listing: FolderListing
            do {
                listing = try reader.read(relative, known: catalog.knownIdentities(in: relative))
            } catch {
                if relative.isEmpty { throw .sourceUnavailable(error) }
                if error == .notFound || error == .notDirectory {
                    apply { () throws(DatabaseError) in try catalog.removeFolder(relative) }
                } else {
                    Log.warning("\(reader.root.appending(relative)): cannot list folder (\(error)), skipped")
                }
                continue
            }
            // A folder reached twice (a link back into the tree) is read once.
            guard visited.insert([listing.status.device, listing.status.inode]).inserted else { continue }
            var subfolders: [(FilePath, UInt32)] = []
            apply { () throws(DatabaseError) in
                let update = try catalog.apply(listing, at: relative, inheritedPermissions: inherited)
                subfolders = update.subfolders.filter { everything || $0.isNew }.map { ($0.path, update.permissions) }
                return update.invalidations
            }
            stack += subfolders.reversed()
            folders += 1
            progress(folders)
        }
    }

    /// Brings `folders` up to date (an event named them); a folder gone is removed with its subtree.
    func refresh(_ folders: Set<FilePath>) throws(Failure) {
        // Parents first: a parent's walk may already cover (or remove) a child named too.
        for folder in folders.sorted(by: { $0.bytes.count < $1.bytes.count }) {
            guard folder.isEmpty || catalog.folder(at: folder.parent) != nil || catalog.folder(at: folder) != nil else { continue }
            try walk(from: folder, everything: false)
        }
    }

    /// What folder `relative` inherits from the folders above it (stored with its parent).
    private func inheritedPermissions(of relative: FilePath) -> UInt32 {
        guard !relative.isEmpty else { return 0o555 }
        return catalog.folder(at: relative.parent)?.ownership.permissions ?? 0o555
    }

    private func apply(_ change: () throws(DatabaseError) -> [Invalidation]) {
        do { invalidate(try change()) } catch {
            Log.warning("\(catalog.path): cannot update the catalog: \(error)")
        }
    }
}
