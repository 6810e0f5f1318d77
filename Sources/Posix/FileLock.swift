import Glibc

/// An exclusive `flock(2)` on a file, held while its descriptor is open. The kernel lets go when
/// the process ends, however it ends (kill -9 included), so a lock is never left stale. It belongs
/// to the open file, not to the process: a child forked while it is held (a daemon) holds it on.
public struct FileLock: Sendable {
    public let descriptor: FileDescriptor

    /// Opens `path` (created 0600 if missing) and locks it without waiting; nil when another open
    /// file holds the lock. A file that may not be written (a read-only folder) is locked read-only.
    public static func tryExclusive(_ path: FilePath) throws(Errno) -> FileLock? {
        let file: FileDescriptor
        do {
            file = FileDescriptor(rawValue: try syscall { path.withCString { open($0, O_RDWR | O_CREAT | O_CLOEXEC, mode_t(0o600)) } })
        } catch where error.rawValue == EROFS || error.rawValue == EACCES {
            file = try FileDescriptor.openReadOnly(path)
        }
        do {
            _ = try syscall { flock(file.rawValue, LOCK_EX | LOCK_NB) }
        } catch {
            file.close()
            if error.rawValue == EWOULDBLOCK { return nil }
            throw error
        }
        return FileLock(descriptor: file)
    }

    /// Replaces the file's contents with `bytes`, for whoever finds it locked (a failure to write,
    /// in a read-only folder, only leaves them without the note).
    public func record(_ bytes: [UInt8]) {
        guard (try? syscall { ftruncate(descriptor.rawValue, 0) }) != nil else { return }
        _ = bytes.withUnsafeBytes { pwrite(descriptor.rawValue, $0.baseAddress, $0.count, 0) }
    }

    /// Unlocks (closing the descriptor).
    public func release() { descriptor.close() }
}
