import Glibc
import Posix

/// One mount per catalog. A mount keeps its catalog in step with SOURCE and tells only its own
/// kernel what changed, so a second daemon on the same catalog (and cache) would serve a tree
/// that goes stale. The mount holds an exclusive lock on `X.catalog.lock` beside the catalog for
/// as long as it lives (the kernel drops it when the daemon dies, even by kill -9), and writes in
/// it its pid and mountpoint, so that whoever finds it locked can say where the mount is.
struct CatalogLock: ~Copyable {
    private let lock: FileLock

    /// Who holds a catalog's lock, as the holder wrote it.
    struct Holder {
        var pid: pid_t?
        var mountpoint: FilePath?

        var description: String {
            guard let mountpoint else { return "another assetfs mount" + (pid.map { " (pid \($0))" } ?? "") }
            return "the mount on \(mountpoint)" + (pid.map { " (assetfs pid \($0))" } ?? "")
        }

        /// Whether its mountpoint is mounted: a daemon that was just unmounted holds the lock
        /// until it has finished exiting, one starting until it has mounted.
        var isServing: Bool {
            guard let mountpoint, let mounted = try? MountTable.mountPoints() else { return false }
            return mounted.contains(mountpoint)
        }
    }

    /// Takes the lock at `path` for the mount on `mountpoint`; throws the refusal, naming the
    /// mount that holds it, when another holds it (after waiting up to `patience` seconds for a
    /// holder that is not mounted: `fusermount3 -u` returns before its daemon has exited). Nil
    /// (with a warning) when no lock file can be made at all: nothing can be written beside the catalog then.
    static func take(_ path: FilePath, mountpoint: FilePath, cache: FilePath, patience: Double = 30) throws(UsageError) -> CatalogLock? {
        var waited = 0.0
        while true {
            switch attempt(path) {
            case .taken(let lock):
                let taken = CatalogLock(lock: lock)
                taken.recordHolder(mountpoint: mountpoint)
                return taken
            case .held(let holder) where holder.isServing || waited >= patience:
                let exiting = holder.isServing ? "" : " (not mounted, yet still running after \(Int(patience)) s: are files of it still open?)"
                throw UsageError("the cache and catalog \(cache) are in use by \(holder.description)\(exiting), and two mounts of one catalog "
                                 + "would not see each other's changes: use that mount, unmount it first (fusermount3 -u "
                                 + "\(holder.mountpoint?.description ?? "MOUNTPOINT")), or give this mount a cache and catalog of its own with -o cache=FILE")
            case .held:
                usleep(50_000)
                waited += 0.05
            case .unavailable(let error):
                Log.warning("\(path): cannot lock the catalog (\(error)); a second mount of it would not be refused")
                return nil
            }
        }
    }

    /// The mountpoint of the mount holding the lock at `path`, if one does and serves (for the
    /// commands that run beside it).
    static func servingMount(_ path: FilePath) -> FilePath? {
        switch attempt(path) {
        case .taken(let lock):
            lock.release()
            return nil
        case .held(let holder): return holder.isServing ? holder.mountpoint : nil
        case .unavailable: return nil
        }
    }

    /// Writes this process's pid (again after going to the background: the daemon is a child).
    func recordHolder(mountpoint: FilePath) {
        lock.record(Array("\(getpid()) ".utf8) + mountpoint.bytes + [0x0A])
    }

    private enum Attempt: ~Copyable {
        case taken(FileLock)
        case held(Holder)
        case unavailable(Errno)
    }

    private static func attempt(_ path: FilePath) -> Attempt {
        try? Directory.create(path.parent, permissions: 0o700)
        do {
            if let lock = try FileLock.tryExclusive(path) { return .taken(lock) }
            return .held(readHolder(path))
        } catch {
            return .unavailable(error)
        }
    }

    /// "PID MOUNTPOINT\n", or what is left of it (the holder may not have written it yet).
    private static func readHolder(_ path: FilePath) -> Holder {
        guard let file = try? OwnedFileDescriptor.openReadOnly(path) else { return Holder() }
        var note = (try? file.readToEnd()) ?? []
        if note.last == 0x0A { note.removeLast() }
        guard let space = note.firstIndex(of: 0x20), let pid = pid_t(String(decoding: note[..<space], as: UTF8.self)) else {
            return Holder()
        }
        let mountpoint = Array(note[(space + 1)...])
        return Holder(pid: pid, mountpoint: mountpoint.isEmpty ? nil : FilePath(bytes: mountpoint))
    }
}
