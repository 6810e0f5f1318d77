import Glibc
import Synchronization

/// One line per problem: to stderr in the foreground, to syslog once the daemon is in the background.
public enum Log {
    public enum Destination: Sendable { case standardError, syslog }
    private static let state = Mutex<(destination: Destination, debug: Bool)>((.standardError, false))

    public static func configure(destination: Destination, debug: Bool) {
        state.withLock { $0 = (destination, debug) }
        if destination == .syslog { openlog("assetfs", LOG_PID, LOG_DAEMON) }
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
        }
    }
}
