import Glibc

public enum Signals {
    /// Keeps SIGINT, SIGTERM and SIGHUP away from the calling thread. Every helper thread calls
    /// this first, so those signals reach libfuse's loop thread, which then ends the session at
    /// once instead of at the next request.
    public static func blockTerminationInCurrentThread() {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&set, signal) }
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }
}
