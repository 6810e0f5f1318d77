internal import CLinux
import Glibc

/// A 64-bit counter in a file that every process opening it maps: an increment by one is seen
/// by the others' next load, with no system call on either side (what `CommitCounter` counts the
/// catalog's commits with, across the mount and the commands run beside it).
public final class SharedCounter: @unchecked Sendable {
    /// The mapped counter; shared with other processes, so only touched through the C atomics.
    private let counter: UnsafeMutablePointer<UInt64>

    /// Maps the counter in `path`, made (0600, counting from 0) if missing; throws when the file
    /// cannot be opened for writing or mapped (a read-only folder).
    public init(path: FilePath) throws(Errno) {
        let file = try OwnedFileDescriptor.openReadWrite(path, creatingWith: 0o600)
        let descriptor = file.rawValue
        var status = stat()
        _ = try syscall { fstat(descriptor, &status) }
        let size = MemoryLayout<UInt64>.size
        // Growing it never shrinks another process's count (ftruncate to the same size keeps it).
        if status.st_size < size { _ = try syscall { ftruncate(descriptor, off_t(size)) } }
        guard let mapped = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor, 0), mapped != MAP_FAILED else { throw Errno.current }
        counter = mapped.assumingMemoryBound(to: UInt64.self)
    }

    deinit { munmap(counter, MemoryLayout<UInt64>.size) }

    /// The count now (an acquiring load).
    public var value: UInt64 { clinux_shared_load(counter) }

    /// Adds one (a full barrier: nothing before it is seen after it, nor after it before).
    public func increment() { clinux_shared_increment(counter) }
}
