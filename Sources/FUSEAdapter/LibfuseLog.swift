internal import CFUSE
import Glibc
import Posix
import Synchronization

/// Where libfuse's own messages go. libfuse writes a message in pieces, so text is gathered
/// until a newline and sent to our log as one line; while `capturing`, lines are kept instead,
/// so a command-line problem can be reported as one line of ours, with a fix.
enum LibfuseLog {
    private static let state = Mutex<(pending: String, captured: [String]?)>(("", nil))

    static func install() {
        fuse_set_log_func { level, format, arguments in
            guard let format, let arguments else { return }
            var buffer = [CChar](repeating: 0, count: 1024)
            _ = vsnprintf(&buffer, buffer.count, format, arguments)
            let text = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            LibfuseLog.append(text, isError: level.rawValue <= FUSE_LOG_ERR.rawValue)
        }
    }

    /// Runs `body` with libfuse's messages held back; returns them with its result.
    static func capturing<R>(_ body: () -> R) -> (R, [String]) {
        install()
        state.withLock { $0.captured = [] }
        let result = body()
        let lines = state.withLock { state in
            defer { state = ("", nil) }
            return (state.captured ?? []) + (state.pending.isEmpty ? [] : [state.pending])
        }
        return (result, lines.map { $0.hasPrefix("fuse: ") ? String($0.dropFirst(6)) : $0 })
    }

    private static func append(_ text: String, isError: Bool) {
        var complete: [String] = []
        let keep = state.withLock { state -> Bool in
            state.pending += text
            while let newline = state.pending.firstIndex(of: "\n") {
                complete.append(String(state.pending[..<newline]))
                state.pending = String(state.pending[state.pending.index(after: newline)...])
            }
            if state.captured != nil { state.captured! += complete; return true }
            return false
        }
        guard !keep else { return }
        for line in complete { isError ? Log.error(line) : Log.debug(line) }
    }
}
