internal import CLinux

/// How this process's malloc treats big buffers.
public enum Allocator {
    /// Buffers of `bytes` and more (whole-image decodes, coefficient arrays, rendition bytes) are
    /// mapped and given back to the system when freed, never kept in malloc's arenas. glibc
    /// otherwise raises its threshold after each such free, and a daemon's RSS stays at its
    /// high-water mark after a burst of big decodes. Call before any thread starts.
    public static func returnBuffersToTheSystem(from bytes: Int) {
        if clinux_map_allocations_from(Int32(clamping: bytes)) != 1 { Log.debug("mallopt(M_MMAP_THRESHOLD) refused") }
    }
}
