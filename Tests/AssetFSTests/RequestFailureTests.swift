import Glibc
import PhotoSource
import Posix
import Testing
@testable import AssetFS

/// The one errno table (`RequestFailure`), row by row, and how the failures of opening a source
/// and of making a rendition become its kinds.
@Suite struct RequestFailureTests {
    static let table: [(RequestFailure, Int32)] = [
        (.sourceChanged, ENOENT),
        (.sourceUnavailable(.permissionDenied), EACCES),
        (.sourceUnavailable(.io), EIO),
        (.sourceUnavailable(Errno(rawValue: EMFILE)), EIO),
        (.sourceUnavailable(.notFound), EIO),
        (.originalUnreadable, EIO),
        (.photoBroken, EIO),
        (.posterDenied, EACCES),
        (.catalogUnreadable, EIO),
        (.stopping, EIO),
        (.writeOnReadOnlyMount, EROFS),
        (.unknownHandle, EBADF),
        (.opendirNotNeeded, ENOSYS),
        (.attributeNamespaceUnsupported, EOPNOTSUPP),
        (.attributeTooLarge, ERANGE),
        (.unanswered, EIO),
    ]

    @Test func eachFailureKindHasItsErrno() {
        for (failure, errno) in Self.table {
            #expect(failure.errno.rawValue == errno, "\(failure)")
        }
    }

    @Test func aSourceThatCannotBeOpenedIsChangedOrUnavailable() {
        #expect(RequestFailure(SourceFiles.Failure.changed("no longer there")) == .sourceChanged)
        #expect(RequestFailure(SourceFiles.Failure.unavailable(.permissionDenied)).errno == .permissionDenied)
        #expect(RequestFailure(SourceFiles.Failure.unavailable(.io)).errno == .io)
    }

    @Test func aRenditionFailureIsBrokenOrItsKind() {
        #expect(RequestFailure(RenditionFailure.broken(reason: "corrupt")) == .photoBroken)
        #expect(RequestFailure(RenditionFailure.unavailable(.stopping, reason: "the mount is stopping")) == .stopping)
        #expect(RequestFailure(RenditionFailure.unavailable(.sourceChanged, reason: "gone")).errno == .notFound)
    }
}
