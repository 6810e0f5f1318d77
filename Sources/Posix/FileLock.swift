import Glibc

/// An exclusive `flock(2)` on a file, held while its descriptor is open. The kernel lets go when
/// the process ends, however it ends (kill -9 included), so a lock is never left stale. It belongs
/// to the open file, not to the process: a child forked while it is held (a daemon) holds it on.
public struct FileLock: ~Copyable, Sendable {
    private let file: OwnedFileDescriptor

    /// Opens `path` (created 0600 if missing) and locks it without waiting; nil when another open
    /// file holds the lock. A file that may not be written (a read-only folder) is locked read-only.
    public static func tryExclusive(_ path: FilePath) throws(Errno) -> FileLock? {
        let file = try open(path)
        let descriptor = file.rawValue
        do {
            _ = try syscall { flock(descriptor, LOCK_EX | LOCK_NB) }
        } catch where error.rawValue == EWOULDBLOCK {
            return nil
        }
        return FileLock(file: file)
    }

    private static func open(_ path: FilePath) throws(Errno) -> OwnedFileDescriptor {
        do {
            return try OwnedFileDescriptor.openReadWrite(path, creatingWith: 0o600)
        } catch where error.rawValue == EROFS || error.rawValue == EACCES {
            return try OwnedFileDescriptor.openReadOnly(path)
        }
    }

    /// Replaces the file's contents with `bytes`, for whoever finds it locked (a failure to write,
    /// in a read-only folder, only leaves them without the note).
    public func record(_ bytes: [UInt8]) {
        let descriptor = file.rawValue
        guard (try? syscall { ftruncate(descriptor, 0) }) != nil else { return }
        _ = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
    }

    /// Unlocks now (closing the descriptor), as letting the lock go does at the end of its owner.
    public consuming func release() {}
}
