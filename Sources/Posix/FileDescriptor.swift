import Glibc

/// <fcntl.h>'s O_PATH on Linux, which Swift's Glibc module leaves out (it needs _GNU_SOURCE).
private let O_PATH: Int32 = 0o10000000

/// An open file descriptor. A value type like swift-system's: the owner closes it.
public struct FileDescriptor: Sendable, Hashable {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// `open(2)` read-only, close-on-exec.
    public static func openReadOnly(_ path: FilePath, followLinks: Bool = true) throws(Errno) -> FileDescriptor {
        let flags = O_RDONLY | O_CLOEXEC | (followLinks ? 0 : O_NOFOLLOW)
        return FileDescriptor(rawValue: try syscall { path.withCString { open($0, flags) } })
    }

    /// `open(2)` with O_PATH: a handle on the place itself that reads nothing and asks its
    /// filesystem nothing, so a FUSE mount's root can be held before its daemon serves.
    public static func openPath(_ path: FilePath) throws(Errno) -> FileDescriptor {
        FileDescriptor(rawValue: try syscall { path.withCString { open($0, O_PATH | O_CLOEXEC) } })
    }

    /// `open(2)` for appending (every write lands at the end, whoever else writes), created
    /// with `permissions` if missing, close-on-exec.
    public static func openForAppending(_ path: FilePath, permissions: mode_t = 0o600) throws(Errno) -> FileDescriptor {
        FileDescriptor(rawValue: try syscall { path.withCString { open($0, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, permissions) } })
    }

    /// `open(2)` for reading and writing, close-on-exec (a device such as /dev/fuse).
    public static func openReadWrite(_ path: FilePath) throws(Errno) -> FileDescriptor {
        FileDescriptor(rawValue: try syscall { path.withCString { open($0, O_RDWR | O_CLOEXEC) } })
    }

    /// `open(2)` for writing, created with `permissions` if missing, truncated.
    public static func create(_ path: FilePath, permissions: mode_t = 0o644) throws(Errno) -> FileDescriptor {
        FileDescriptor(rawValue: try syscall { path.withCString { open($0, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, permissions) } })
    }

    public func close() { _ = Glibc.close(rawValue) }

    /// `pread(2)`: up to `count` bytes at `offset`; fewer only at end of file.
    public func read(upTo count: Int, at offset: Int64) throws(Errno) -> [UInt8] {
        guard count > 0 else { return [] }
        var result = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let n = try result.withUnsafeMutableBytes { buffer in
                Result { () throws(Errno) in
                    try syscall { pread(rawValue, buffer.baseAddress! + filled, count - filled, off_t(offset) + off_t(filled)) }
                }
            }.get()
            if n == 0 { break }
            filled += n
        }
        result.removeLast(count - filled)
        return result
    }

    /// `read(2)`: what one read gives, up to `count` bytes (from a pipe: [] once every writer is gone).
    public func read(upTo count: Int) throws(Errno) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: count)
        let n = try result.withUnsafeMutableBytes { buffer in
            Result { () throws(Errno) in try syscall { Glibc.read(rawValue, buffer.baseAddress!, count) } }
        }.get()
        result.removeLast(count - n)
        return result
    }

    /// The whole file, for files whose size `stat` does not tell (those under /proc).
    public func readToEnd() throws(Errno) -> [UInt8] {
        var result: [UInt8] = []
        while true {
            let chunk = try read(upTo: 65536, at: Int64(result.count))
            result += chunk
            if chunk.count < 65536 { return result }
        }
    }

    /// Writes all of `bytes`.
    public func writeAll<C: Collection>(_ bytes: C) throws(Errno) where C.Element == UInt8 {
        let array = Array(bytes)
        var written = 0
        while written < array.count {
            written += try array.withUnsafeBytes { buffer in
                Result { () throws(Errno) in
                    try syscall { write(rawValue, buffer.baseAddress! + written, array.count - written) }
                }
            }.get()
        }
    }

    /// `fstatvfs(2)`, for its answer only: on a FUSE mount it is a request the daemon must serve.
    public func checkFileSystem() throws(Errno) {
        var info = statvfs()
        _ = try syscall { fstatvfs(rawValue, &info) }
    }

    public func status() throws(Errno) -> FileStatus {
        var st = stat()
        _ = try syscall { fstat(rawValue, &st) }
        return FileStatus(st)
    }

    public static let standardOutput = FileDescriptor(rawValue: 1)
    public static let standardError = FileDescriptor(rawValue: 2)
}
