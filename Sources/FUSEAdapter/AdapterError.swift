import Glibc
import Posix

/// The refusals the adapter decides itself, and the one table of the errno each tells the
/// kernel. Failures of `AssetFileSystem` arrive as an `Errno` already, decided there (a missing
/// node, a failed render, an unreadable original), and pass through unchanged.
enum AdapterError {
    /// An open for writing: nothing here is writable.
    case writeOnReadOnlyMount
    /// A READ with a handle no OPEN gave, or one a RELEASE took back.
    case unknownHandle
    /// An OPENDIR the kernel can do without: "not implemented" stops it sending any more.
    case opendirNotNeeded
    /// An attribute outside user.*: "not supported" for security.* and system.* makes tools such
    /// as `ls -l` stop asking for the rest of the mount (unlike "no such attribute").
    case attributeNamespaceUnsupported
    /// An attribute value larger than the caller's buffer.
    case attributeTooLarge
    /// A request dropped without a reply: the caller's system call fails instead of waiting.
    case unanswered

    var errno: Errno {
        switch self {
        case .writeOnReadOnlyMount: .readOnlyFileSystem
        case .unknownHandle: .badFileDescriptor
        case .opendirNotNeeded: Errno(rawValue: ENOSYS)
        case .attributeNamespaceUnsupported: Errno(rawValue: EOPNOTSUPP)
        case .attributeTooLarge: .range
        case .unanswered: .io
        }
    }
}
