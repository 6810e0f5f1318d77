import Glibc

/// A folder held open, so that what is in it is reached by name relative to it (`fstatat`,
/// `openat`, `fdopendir`): the kernel walks one component, not the whole path, for each entry
/// (what a scan of a million files spends most of its time on otherwise). Closed with its owner.
public struct OpenFolder: ~Copyable, Sendable {
    private let folder: OwnedFileDescriptor

    /// `open(2)` of `path` as a folder (`O_DIRECTORY`), read-only, close-on-exec.
    public init(_ path: FilePath) throws(Errno) {
        folder = OwnedFileDescriptor(adopting: try syscall { path.withCString { Glibc.open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) } })
    }

    public func status() throws(Errno) -> FileStatus { try folder.status() }

    /// The names in the folder, without `.` and `..` (`fdopendir` on a duplicate of the descriptor).
    public func entries() throws(Errno) -> [DirectoryEntry] {
        let copy = try syscall { dup(folder.rawValue) }
        guard let dir = fdopendir(copy) else {
            let error = Errno.current
            Glibc.close(copy)
            throw error
        }
        defer { closedir(dir) }
        return Directory.entries(of: dir)
    }

    /// `fstatat(2)` of entry `name`; with `followLinks: false`, the link itself.
    public func status(of name: [UInt8], followLinks: Bool) throws(Errno) -> FileStatus {
        let descriptor = folder.rawValue
        var st = stat()
        _ = try syscall { (name + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { fstatat(descriptor, $0.baseAddress!, &st, followLinks ? 0 : AT_SYMLINK_NOFOLLOW) }
        } }
        return FileStatus(st)
    }

    /// `openat(2)` of entry `name`, read-only and non-blocking (a FIFO cannot hold the caller).
    public func open(_ name: [UInt8]) throws(Errno) -> OwnedFileDescriptor {
        let descriptor = folder.rawValue
        let flags = O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY
        return OwnedFileDescriptor(adopting: try syscall { (name + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { openat(descriptor, $0.baseAddress!, flags) }
        } })
    }
}
