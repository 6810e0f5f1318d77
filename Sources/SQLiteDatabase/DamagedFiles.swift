import Glibc
import Posix

extension Database {
    /// Opens a private database file (created 0600, its folder 0700) with `open`; a file that is
    /// not a database, or is damaged, is moved aside (`.corrupt-<time>`, kept for inspection)
    /// with a warning naming `what` it held, and a new one made.
    public static func openPrivate(_ path: FilePath, what: String,
                                   _ open: (FilePath) throws(DatabaseError) -> Database) throws(DatabaseError) -> Database {
        if !path.parent.isEmpty { try? Directory.create(path.parent, permissions: 0o700) }
        let old = umask(0o077)
        defer { umask(old) }
        do {
            return try open(path)
        } catch where error.isCorruption {
            var now = timespec()
            clock_gettime(CLOCK_REALTIME, &now)
            let aside = FilePath(bytes: path.bytes + Array(".corrupt-\(now.tv_sec)-\(now.tv_nsec)".utf8))
            Log.warning("\(path): \(what) is damaged (\(error.message)); moved aside to \(aside) and starting a new one")
            _ = path.withCString { from in aside.withCString { to in rename(from, to) } }
            for suffix in ["-wal", "-shm"] { _ = FilePath(bytes: path.bytes + Array(suffix.utf8)).withCString { unlink($0) } }
            return try open(path)
        }
    }
}
