internal import CLinux

/// The scheduling of the calling thread.
public enum ThreadPriority {
    /// Nice 10 and the lowest best-effort I/O priority for this thread only (`setpriority` and
    /// `ioprio_set` on its thread id): for background work that must yield to requests.
    public static func lowerCurrentThread() {
        if clinux_lower_thread_priority() != 0 { Log.debug("cannot lower this thread's priority: \(Errno.current)") }
    }
}
