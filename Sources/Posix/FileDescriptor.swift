internal import CLinux
import Glibc


/// An open file descriptor. A value type like swift-system's: the owner closes it.
public struct FileDescriptor: Sendable, Hashable {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// `open(2)` read-only, close-on-exec; `nonBlocking` so that opening a FIFO returns at once.
    public static func openReadOnly(_ path: FilePath, followLinks: Bool = true, nonBlocking: Bool = false) throws(Errno) -> FileDescriptor {
        let flags = O_RDONLY | O_CLOEXEC | (followLinks ? 0 : O_NOFOLLOW) | (nonBlocking ? O_NONBLOCK | O_NOCTTY : 0)
        return FileDescriptor(rawValue: try syscall { path.withCString { open($0, flags) } })
    }

    /// `open(2)` of a folder, only to open things beneath it (`O_PATH`: no read permission needed).
    public static func openFolder(_ path: FilePath) throws(Errno) -> FileDescriptor {
        FileDescriptor(rawValue: try syscall { path.withCString { clinux_open_folder($0) } })
    }

    /// Opens `relative` read-only and non-blocking (a FIFO cannot hold the caller) beneath this
    /// folder: `openat2(2)` with `RESOLVE_BENEATH`, so no `..` or symbolic link leads out of it.
    /// Where the kernel lacks openat2 (before 5.6), a plain `openat(2)`: callers check identity.
    public func openBeneath(_ relative: FilePath) throws(Errno) -> FileDescriptor {
        let flags = O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY
        do {
            return FileDescriptor(rawValue: try syscall { relative.withCString { clinux_open_beneath(rawValue, $0, flags) } })
        } catch where error.rawValue == ENOSYS {
            return FileDescriptor(rawValue: try syscall { relative.withCString { openat(rawValue, $0, flags) } })
        }
    }

    /// A file in memory holding `bytes`, for code that reads only descriptors; the caller closes it.
    public static func memoryFile(holding bytes: [UInt8]) throws(Errno) -> FileDescriptor {
        let file = FileDescriptor(rawValue: try syscall { clinux_memory_file("assetfs") })
        do { try file.writeAll(bytes) } catch { file.close(); throw error }
        return file
    }

    /// `open(2)` with O_PATH: a handle on the place itself that reads nothing and asks its
    /// filesystem nothing, so a FUSE mount's root can be held before its daemon serves.
    public static func openPath(_ path: FilePath) throws(Errno) -> FileDescriptor {
        FileDescriptor(rawValue: try syscall { path.withCString { clinux_open_path($0) } })
    }

    /// `open(2)` for appending (every write lands at the end, whoever else writes), created
    /// with `permissions` if missing, close-on-exec.
    public static func openForAppending(_ path: FilePath, permissions: UInt32 = 0o600) throws(Errno) -> FileDescriptor {
        FileDescriptor(rawValue: try syscall { path.withCString { open($0, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, mode_t(permissions)) } })
    }

    /// Makes this descriptor name the file `other` names, keeping its number (`dup3(2)`, close-on-exec).
    /// The swap is atomic: a write by another thread meanwhile goes wholly to one file or the other.
    public func replace(with other: FileDescriptor) throws(Errno) {
        _ = try syscall { clinux_replace_descriptor(other.rawValue, rawValue) }
    }

    /// `open(2)` for reading and writing, close-on-exec (a device such as /dev/fuse).
    public static func openReadWrite(_ path: FilePath) throws(Errno) -> FileDescriptor {
        FileDescriptor(rawValue: try syscall { path.withCString { open($0, O_RDWR | O_CLOEXEC) } })
    }

    /// `open(2)` for writing, created with `permissions` if missing, truncated.
    public static func create(_ path: FilePath, permissions: UInt32 = 0o644) throws(Errno) -> FileDescriptor {
        FileDescriptor(rawValue: try syscall { path.withCString { open($0, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode_t(permissions)) } })
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
