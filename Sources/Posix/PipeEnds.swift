import Glibc

/// Both ends of a `pipe(2)`, each owned, close-on-exec (no program started later inherits one).
/// A holder that needs one end only takes it out (`ends.write`), and the other closes as the
/// rest of the value goes.
public struct PipeEnds: ~Copyable, Sendable {
    public let read: OwnedFileDescriptor
    public let write: OwnedFileDescriptor

    public init() throws(Errno) {
        var ends: [Int32] = [-1, -1]
        _ = try syscall { pipe(&ends) }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        read = OwnedFileDescriptor(adopting: ends[0])
        write = OwnedFileDescriptor(adopting: ends[1])
    }
}
