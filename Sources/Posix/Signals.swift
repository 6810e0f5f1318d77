import Glibc
import Synchronization

public enum Signals {
    /// Keeps SIGINT, SIGTERM and SIGHUP away from the calling thread. Every helper thread calls
    /// this first, so those signals reach libfuse's loop thread, which then ends the session at
    /// once instead of at the next request.
    public static func blockTerminationInCurrentThread() { maskTermination(SIG_BLOCK) }

    /// Lets SIGINT, SIGTERM and SIGHUP reach the calling thread, the one that serves. A parent
    /// may have blocked them, and a blocked mask passes on through fork and exec (Foundation's
    /// Process passes its thread's): the daemon then never saw SIGTERM.
    public static func unblockTerminationInCurrentThread() { maskTermination(SIG_UNBLOCK) }

    private static func maskTermination(_ how: Int32) {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&set, signal) }
        pthread_sigmask(how, &set, nil)
    }

    /// Where the SIGHUP handler writes; set before the handler is installed, so that the handler
    /// never runs the lazy initialisation of a global (which is not async-signal-safe).
    private static let hangUpPipe = Atomic<Int32>(-1)

    /// Takes SIGHUP over (from libfuse, whose handler ends the session) for a daemon's
    /// convention: "reopen your log file", as logrotate's postrotate sends it. The handler only
    /// writes a byte to a pipe, which is async-signal-safe; the returned descriptor reads one
    /// byte per SIGHUP (signals close together may make one), for a thread to act on.
    public static func catchHangUps() throws(Errno) -> OwnedFileDescriptor {
        let ends = try PipeEnds()
        _ = fcntl(ends.write.rawValue, F_SETFL, O_NONBLOCK)  // a full pipe drops the byte, never blocks the handler
        // The handler writes to it for as long as the process lives: it is never closed.
        hangUpPipe.store(ends.write.leaveOpen(), ordering: .sequentiallyConsistent)
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in
            let saved = errno
            var byte: UInt8 = 1
            _ = write(Signals.hangUpPipe.load(ordering: .relaxed), &byte, 1)
            errno = saved
        }
        action.sa_flags = SA_RESTART
        sigemptyset(&action.sa_mask)
        _ = try syscall { sigaction(SIGHUP, &action, nil) }
        return ends.read
    }
}
