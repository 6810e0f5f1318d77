import Glibc

/// A POSIX error number, typed so that callers switch on meaning rather than on `Int32`.
public struct Errno: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The error of the last failed call on this thread.
    public static var current: Errno { Errno(rawValue: errno) }

    public var description: String { String(cString: strerror(rawValue)) }

    public static let notFound = Errno(rawValue: ENOENT)
    public static let io = Errno(rawValue: EIO)
    public static let readOnlyFileSystem = Errno(rawValue: EROFS)
    public static let notDirectory = Errno(rawValue: ENOTDIR)
    public static let isDirectory = Errno(rawValue: EISDIR)
    public static let noAttribute = Errno(rawValue: ENODATA)
    public static let range = Errno(rawValue: ERANGE)
    public static let badFileDescriptor = Errno(rawValue: EBADF)
    public static let notConnected = Errno(rawValue: ENOTCONN)
    public static let permissionDenied = Errno(rawValue: EACCES)
}

/// The one funnel every syscall goes through: turns `-1` into a typed `Errno`, and retries
/// `EINTR` unless told not to: `close(2)` must not be retried, since Linux frees the number
/// even when it reports EINTR, and another thread may already have been given it.
@inline(__always)
public func syscall<I: FixedWidthInteger>(retryOnInterrupt: Bool = true, _ call: () -> I) throws(Errno) -> I {
    while true {
        let result = call()
        if result != -1 { return result }
        let error = Errno.current
        if error.rawValue != EINTR || !retryOnInterrupt { throw error }
    }
}
