import Glibc

/// Going to the background as `fuse_daemonize` does (fork, new session, stdio to /dev/null, cwd
/// `/`), except that the parent stays until the child says it is ready, and otherwise exits with
/// the child's failure. `fuse_daemonize` lets the parent exit 0 at once, so a mount that failed
/// after it (libfuse refusing the kernel's INIT, for one) still looked like a success.
public struct Daemon: ~Copyable, Sendable {
    private let readiness: OwnedFileDescriptor

    /// Forks. Returns in the child only: the parent waits for `ready()` and exits 0, or for the
    /// child to end without it and exits with its status (never 0). Until `ready()` the child
    /// keeps stdin, stdout, stderr and the working folder, so its errors reach the caller.
    public static func detach() throws(Errno) -> Daemon {
        let ends = try PipeEnds()
        let child = try syscall { fork() }
        if child == 0 {
            _ = setsid()
            return Daemon(readiness: ends.write)  // the read end closes here
        }
        try? ends.write.close()  // else the read below would never see the child end without a word
        let said = (try? ends.read.read(upTo: 1)) ?? []
        if !said.isEmpty { _exit(0) }
        var status: Int32 = 0
        _ = try? syscall { waitpid(child, &status, 0) }
        let exitStatus = (status >> 8) & 0xFF  // WEXITSTATUS; a signal (low bits) leaves it 0
        _exit(exitStatus == 0 ? 1 : exitStatus)
    }

    /// Lets the parent exit 0 and lets go of the terminal and the working folder. The pipe to
    /// the parent closes with this value.
    public func ready() {
        _ = chdir("/")
        if let null = try? OwnedFileDescriptor.openReadWrite(FilePath("/dev/null")) {
            for target in Int32(0)...2 { _ = try? syscall { dup2(null.rawValue, target) } }
            // Opened as 0, 1 or 2 (one was closed): it is now that standard stream, left open.
            if null.rawValue <= 2 { _ = null.leaveOpen() }
        }
        try? readiness.writeAll([1])
    }
}
