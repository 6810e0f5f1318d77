import Glibc
import PhotoSource
import Posix

/// The one table of what the kernel is told when a request fails: each failure kind and its
/// errno, for the file system and the FUSE adapter alike.
///
/// A request that names what is not there or not for its caller fails where that is found,
/// with the errno that means just that: ENOENT (no such node), ENOTDIR, EISDIR, EACCES (the
/// caller's permissions), ENODATA (no such attribute), EROFS (write access asked). Every other
/// failure is one of these kinds, and gets its errno here:
///
/// | kind                          | errno      | why                                                    |
/// |-------------------------------|------------|--------------------------------------------------------|
/// | sourceChanged                 | ENOENT     | the catalog is behind: the file went, as after a rename |
/// | sourceUnavailable(EACCES)     | EACCES     | the caller could not read the source either            |
/// | sourceUnavailable(other)      | EIO        | passing (a disk, a network, no descriptors): retry     |
/// | originalUnreadable            | EIO        | a read of an open original failed                      |
/// | photoBroken                   | EIO        | cannot be rendered (`-o broken=error`)                 |
/// | posterDenied                  | EACCES     | the poster's photo is one its reader may not read      |
/// | catalogUnreadable             | EIO        | never "no such file" for what may well be there        |
/// | stopping                      | EIO        | the mount is going: a queued render is not made        |
/// | interrupted                   | EINTR      | the caller went (FUSE INTERRUPT) before the render was  |
/// | writeOnReadOnlyMount          | EROFS      | nothing here is writable                               |
/// | unknownHandle                 | EBADF      | a READ with a handle no OPEN gave, or RELEASE took     |
/// | opendirNotNeeded              | ENOSYS     | "not implemented" stops the kernel sending OPENDIR     |
/// | attributeNamespaceUnsupported | EOPNOTSUPP | not ENODATA: `ls -l` stops asking for security.*       |
/// | attributeTooLarge             | ERANGE     | the value is larger than the caller's buffer           |
/// | notALink                      | EINVAL     | readlink(2) of what is not a symbolic link             |
/// | unanswered                    | EIO        | a request dropped without a reply fails, never hangs   |
public enum RequestFailure: Error, Sendable, Equatable {
    case sourceChanged
    case sourceUnavailable(Errno)
    case originalUnreadable
    case photoBroken
    case posterDenied
    case catalogUnreadable
    case stopping
    case interrupted
    case writeOnReadOnlyMount
    case unknownHandle
    case opendirNotNeeded
    case attributeNamespaceUnsupported
    case attributeTooLarge
    case notALink
    case unanswered

    public var errno: Errno {
        switch self {
        case .sourceChanged: .notFound
        case .sourceUnavailable(let error): error == .permissionDenied ? .permissionDenied : .io
        case .originalUnreadable, .photoBroken, .catalogUnreadable, .stopping, .unanswered: .io
        case .posterDenied: .permissionDenied
        case .interrupted: Errno(rawValue: EINTR)
        case .writeOnReadOnlyMount: .readOnlyFileSystem
        case .unknownHandle: .badFileDescriptor
        case .opendirNotNeeded: Errno(rawValue: ENOSYS)
        case .attributeNamespaceUnsupported: Errno(rawValue: EOPNOTSUPP)
        case .attributeTooLarge: .range
        case .notALink: Errno(rawValue: EINVAL)
        }
    }

    /// A photo's source that could not be opened.
    init(_ failure: SourceFiles.Failure) {
        switch failure {
        case .changed: self = .sourceChanged
        case .unavailable(let error): self = .sourceUnavailable(error)
        }
    }

    /// A rendition that is not there.
    init(_ failure: RenditionFailure) {
        switch failure {
        case .broken: self = .photoBroken
        case .unavailable(let kind, _): self = kind
        }
    }
}
