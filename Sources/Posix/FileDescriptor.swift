internal import CLinux
import Glibc

/// A descriptor's number, borrowed for calls: a value type like swift-system's, which never
/// closes anything. The descriptor belongs to an `OwnedFileDescriptor` (or to the process, for
/// the standard streams); a `FileDescriptor` is valid while its owner lives, and is what code
/// that reads in steps (a decoder, a parser) keeps for the length of one call of its caller.
public struct FileDescriptor: FileDescriptorCalls, Sendable, Hashable {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let standardOutput = FileDescriptor(rawValue: 1)
    public static let standardError = FileDescriptor(rawValue: 2)
}

/// The calls on an open descriptor, the same for its owner and for a borrowed view of it.
public protocol FileDescriptorCalls: ~Copyable {
    var rawValue: Int32 { get }
}

extension FileDescriptorCalls where Self: ~Copyable {
    /// Opens `relative` read-only and non-blocking (a FIFO cannot hold the caller) beneath this
    /// folder: `openat2(2)` with `RESOLVE_BENEATH`, so no `..` or symbolic link leads out of it.
    /// Where the kernel lacks openat2 (before 5.6), a plain `openat(2)`: callers check identity.
    public func openBeneath(_ relative: FilePath) throws(Errno) -> OwnedFileDescriptor {
        let flags = O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY
        let folder = rawValue
        do {
            return OwnedFileDescriptor(adopting: try syscall { relative.withCString { clinux_open_beneath(folder, $0, flags) } })
        } catch where error.rawValue == ENOSYS {
            return OwnedFileDescriptor(adopting: try syscall { relative.withCString { openat(folder, $0, flags) } })
        }
    }

    /// Makes this descriptor name the file `other` names, keeping its number (`dup3(2)`, close-on-exec).
    /// The swap is atomic: a write by another thread meanwhile goes wholly to one file or the other.
    public func replace(with other: FileDescriptor) throws(Errno) {
        _ = try syscall { clinux_replace_descriptor(other.rawValue, rawValue) }
    }

    /// `pread(2)`: up to `count` bytes at `offset`; fewer only at end of file.
    public func read(upTo count: Int, at offset: Int64) throws(Errno) -> [UInt8] {
        guard count > 0 else { return [] }
        let descriptor = rawValue
        var result = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let n = try result.withUnsafeMutableBytes { buffer in
                Result { () throws(Errno) in
                    try syscall { pread(descriptor, buffer.baseAddress! + filled, count - filled, off_t(offset) + off_t(filled)) }
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
        let descriptor = rawValue
        var result = [UInt8](repeating: 0, count: count)
        let n = try result.withUnsafeMutableBytes { buffer in
            Result { () throws(Errno) in try syscall { Glibc.read(descriptor, buffer.baseAddress!, count) } }
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
        let descriptor = rawValue
        let array = Array(bytes)
        var written = 0
        while written < array.count {
            written += try array.withUnsafeBytes { buffer in
                Result { () throws(Errno) in
                    try syscall { write(descriptor, buffer.baseAddress! + written, array.count - written) }
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
}
