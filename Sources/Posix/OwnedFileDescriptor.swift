internal import CLinux
import Glibc

/// An open file descriptor this code owns. Not copyable, so it has one owner and is closed
/// once: when the owner lets it go (`deinit`), or by `close()` where the owner wants the error
/// (a file written). The compiler refuses a second close, a use after close, and a forgotten
/// one. Calls borrow it; `descriptor` lends the number to code that takes a `FileDescriptor`.
public struct OwnedFileDescriptor: ~Copyable, FileDescriptorCalls, Sendable {
    public let rawValue: Int32

    /// Takes ownership of `rawValue`, a descriptor nothing else will close (a pipe's end, mkstemp's file).
    public init(adopting rawValue: Int32) { self.rawValue = rawValue }

    deinit { _ = Glibc.close(rawValue) }

    /// Closes now, reporting what `close(2)` reports (on some filesystems, a write that failed).
    public consuming func close() throws(Errno) {
        let descriptor = rawValue
        discard self
        _ = try syscall(retryOnInterrupt: false) { Glibc.close(descriptor) }
    }

    /// Gives the number up without closing it, for a descriptor that became something the
    /// process keeps (a standard stream).
    public consuming func leaveOpen() -> Int32 {
        let descriptor = rawValue
        discard self
        return descriptor
    }

    /// The number, for calls that take a `FileDescriptor`: valid while this owner lives.
    public var descriptor: FileDescriptor { FileDescriptor(rawValue: rawValue) }

    /// `open(2)` read-only, close-on-exec; `nonBlocking` so that opening a FIFO returns at once.
    public static func openReadOnly(_ path: FilePath, followLinks: Bool = true, nonBlocking: Bool = false) throws(Errno) -> OwnedFileDescriptor {
        let flags = O_RDONLY | O_CLOEXEC | (followLinks ? 0 : O_NOFOLLOW) | (nonBlocking ? O_NONBLOCK | O_NOCTTY : 0)
        return OwnedFileDescriptor(adopting: try syscall { path.withCString { open($0, flags) } })
    }

    /// `open(2)` of a folder, only to open things beneath it (`O_PATH`: no read permission needed).
    public static func openFolder(_ path: FilePath) throws(Errno) -> OwnedFileDescriptor {
        OwnedFileDescriptor(adopting: try syscall { path.withCString { clinux_open_folder($0) } })
    }

    /// A file in memory holding `bytes`, for code that reads only descriptors.
    public static func memoryFile(holding bytes: [UInt8]) throws(Errno) -> OwnedFileDescriptor {
        let file = OwnedFileDescriptor(adopting: try syscall { clinux_memory_file("assetfs") })
        try file.writeAll(bytes)
        return file
    }

    /// `open(2)` with O_PATH: a handle on the place itself that reads nothing and asks its
    /// filesystem nothing, so a FUSE mount's root can be held before its daemon serves.
    public static func openPath(_ path: FilePath) throws(Errno) -> OwnedFileDescriptor {
        OwnedFileDescriptor(adopting: try syscall { path.withCString { clinux_open_path($0) } })
    }

    /// `open(2)` for appending (every write lands at the end, whoever else writes), created
    /// with `permissions` if missing, close-on-exec.
    public static func openForAppending(_ path: FilePath, permissions: UInt32 = 0o600) throws(Errno) -> OwnedFileDescriptor {
        OwnedFileDescriptor(adopting: try syscall { path.withCString { open($0, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, mode_t(permissions)) } })
    }

    /// `open(2)` for reading and writing, close-on-exec (a device such as /dev/fuse); `create`:
    /// made with `permissions` when missing.
    public static func openReadWrite(_ path: FilePath, creatingWith permissions: UInt32? = nil) throws(Errno) -> OwnedFileDescriptor {
        let flags = O_RDWR | O_CLOEXEC | (permissions == nil ? 0 : O_CREAT)
        return OwnedFileDescriptor(adopting: try syscall { path.withCString { open($0, flags, mode_t(permissions ?? 0)) } })
    }

    /// `open(2)` for writing, created with `permissions` if missing, truncated.
    public static func create(_ path: FilePath, permissions: UInt32 = 0o644) throws(Errno) -> OwnedFileDescriptor {
        OwnedFileDescriptor(adopting: try syscall { path.withCString { open($0, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode_t(permissions)) } })
    }
}

/// A descriptor that several holders read at once (an open original read by every FUSE thread
/// that serves a READ of it, the log file every thread writes): one owner, shared by reference,
/// closed when the last holder lets go, so no read can meet a closed or reused number.
public final class SharedFileDescriptor: FileDescriptorCalls, Sendable {
    private let owned: OwnedFileDescriptor

    public init(_ owned: consuming OwnedFileDescriptor) { self.owned = owned }

    public var rawValue: Int32 { owned.rawValue }
}
