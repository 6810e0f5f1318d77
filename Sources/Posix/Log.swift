import Glibc
import Synchronization

/// One line per problem: to stderr in the foreground; once the daemon is in the background, to
/// syslog, or to a file (`-o log=FILE`, or where there is no syslog to take it).
public enum Log {
    /// A file by its descriptor (shared: every thread writes to it, and a line being written
    /// keeps it open through a reconfiguration) and its path, to open it again after log rotation.
    public enum Destination: Sendable { case standardError, syslog, file(SharedFileDescriptor, path: FilePath) }
    private static let state = Mutex<(destination: Destination, debug: Bool)>((.standardError, false))

    public static func configure(destination: Destination, debug: Bool) {
        state.withLock { $0 = (destination, debug) }
        if case .syslog = destination { openlog("assetfs", LOG_PID, LOG_DAEMON) }
    }

    /// Opens the log file again by its path, as the same descriptor: once logrotate has moved it
    /// away, the next line starts a new file there. Returns the path, or nil where the log is
    /// not a file (nothing to reopen).
    @discardableResult
    public static func reopenFile() throws(Errno) -> FilePath? {
        guard case .file(let file, let path) = state.withLock({ $0.destination }) else { return nil }
        let fresh = try OwnedFileDescriptor.openForAppending(path, permissions: 0o600)
        try file.replace(with: fresh.descriptor)
        return path
    }

    public static var isDebug: Bool { state.withLock { $0.debug } }

    public static func error(_ message: String) { emit(message, priority: LOG_ERR) }
    public static func warning(_ message: String) { emit(message, priority: LOG_WARNING) }
    public static func info(_ message: String) { emit(message, priority: LOG_INFO) }
    public static func debug(_ message: @autoclosure () -> String) {
        if isDebug { emit(message(), priority: LOG_DEBUG) }
    }

    private static func emit(_ message: String, priority: Int32) {
        switch state.withLock({ $0.destination }) {
        case .standardError:
            try? FileDescriptor.standardError.writeAll(Array("assetfs: \(message)\n".utf8))
        case .syslog:
            message.withCString { text in withVaList([text]) { vsyslog(priority, "%s", $0) } }
        case .file(let file, _):
            // One write per line: with O_APPEND, lines from several threads never interleave.
            try? file.writeAll(Array("\(timestamp()) assetfs[\(getpid())]: \(message)\n".utf8))
        }
    }

    /// Now in ISO 8601, UTC, to the millisecond: `2025-01-31T12:00:00.123Z`.
    static func timestamp() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var parts = tm()
        var seconds = now.tv_sec
        gmtime_r(&seconds, &parts)
        var buffer = [CChar](repeating: 0, count: 32)
        let length = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%S", &parts)
        let milliseconds = now.tv_nsec / 1_000_000
        let fraction = milliseconds < 10 ? "00\(milliseconds)" : milliseconds < 100 ? "0\(milliseconds)" : "\(milliseconds)"
        return String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self) + ".\(fraction)Z"
    }
}
