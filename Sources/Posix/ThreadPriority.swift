internal import CLinux

public enum ThreadPriority {
    /// Makes the calling thread background work (a positive nice value, this thread only), so
    /// what people wait for gets the CPU first.
    public static func lowerCurrentThread(niceness: Int32 = 10) {
        _ = clinux_nice_this_thread(niceness)
    }
}
