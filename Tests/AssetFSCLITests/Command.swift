import Foundation
import Glibc
import Testing

/// What a finished command left behind.
struct CommandOutput: Sendable {
    var status: Int32
    var stdout: [UInt8]
    var stderr: [UInt8]
    var timedOut = false

    var out: String { String(decoding: stdout, as: UTF8.self) }
    var err: String { String(decoding: stderr, as: UTF8.self) }
    /// The lines of stderr (a final newline does not make an empty last line).
    var errorLines: [Substring] {
        err.isEmpty ? [] : err.split(separator: "\n", omittingEmptySubsequences: false).dropLast(err.hasSuffix("\n") ? 1 : 0).map { $0 }
    }
    /// stdout split at NUL bytes (for `find -print0` and the per-file scripts).
    var nulFields: [[UInt8]] { stdout.split(separator: 0, omittingEmptySubsequences: false).dropLast(stdout.last == 0 ? 1 : 0).map(Array.init) }
}

/// Runs external programs (assetfs, fusermount3, stat, cat, rsync…) through Foundation `Process`.
/// Timeouts are hang guards: a command still running after `timeout` seconds is killed and the
/// test fails, instead of the whole run hanging.
enum Command {
    static let standardPath = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

    /// Runs `executable` (a path, or a name looked up on PATH) with `arguments`.
    ///
    /// `mayLeaveDaemon`: for commands that leave a background process behind (a mount).
    /// Foundation's Process learns that its child exited when a socket it hands the child is
    /// closed by every holder; a daemon the child forks keeps it open (libfuse's daemonizing
    /// redirects only fds 0-2), so the command would never be seen to finish. Such commands
    /// run under a bash that closes every descriptor above 2 before exec.
    @discardableResult
    static func run(_ executable: String, _ arguments: [String], stdin: [UInt8]? = nil, timeout: Double = 120,
                    environment: [String: String]? = nil, mayLeaveDaemon: Bool = false,
                    sourceLocation: SourceLocation = #_sourceLocation) -> CommandOutput {
        let process = Process()
        if mayLeaveDaemon {
            process.executableURL = URL(fileURLWithPath: resolve("bash"))
            process.arguments = ["-c", #"for fd in /proc/$$/fd/*; do fd=${fd##*/}; [ "$fd" -gt 2 ] && eval "exec $fd>&-"; done; exec "$@""#,
                                 "bash", resolve(executable)] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: resolve(executable))
            process.arguments = arguments
        }
        if let environment { process.environment = environment }
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = stdin == nil ? FileHandle.nullDevice : input
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        let description = ([executable] + arguments).joined(separator: " ")
        do { try process.run() } catch {
            Issue.record("cannot start \(description): \(error)", sourceLocation: sourceLocation)
            return CommandOutput(status: -1, stdout: [], stderr: Array("cannot start: \(error)".utf8))
        }
        // Drain both pipes and feed stdin on their own threads so that no pipe fills up.
        let outBox = Box(Data()), errBox = Box(Data())
        let readers = DispatchGroup()
        spawn(readers) { outBox.value = out.fileHandleForReading.readDataToEndOfFile() }
        spawn(readers) { errBox.value = err.fileHandleForReading.readDataToEndOfFile() }
        if let stdin {
            let writer = input.fileHandleForWriting
            spawn(nil) {
                try? writer.write(contentsOf: Data(stdin))
                try? writer.close()
            }
        }
        var timedOut = false
        if exited.wait(timeout: .now() + timeout) == .timedOut {
            timedOut = true
            kill(process.processIdentifier, SIGKILL)
            Issue.record("hang guard: '\(description)' still running after \(Int(timeout)) s; killed", sourceLocation: sourceLocation)
            if exited.wait(timeout: .now() + 30) == .timedOut {
                Issue.record("'\(description)' was killed but Foundation never saw it exit (a descendant holds its socket?)",
                             sourceLocation: sourceLocation)
                return CommandOutput(status: -1, stdout: [], stderr: [], timedOut: true)
            }
        }
        if readers.wait(timeout: .now() + 30) == .timedOut {
            // The command exited but something it started still holds its stdout or stderr.
            Issue.record("'\(description)' exited but its stdout/stderr stayed open (a child kept them?)", sourceLocation: sourceLocation)
            return CommandOutput(status: process.terminationStatus, stdout: [], stderr: [], timedOut: true)
        }
        return CommandOutput(status: timedOut ? -1 : process.terminationStatus, stdout: [UInt8](outBox.value),
                             stderr: [UInt8](errBox.value), timedOut: timedOut)
    }

    /// `bash -c SCRIPT bash ARGS…`.
    @discardableResult
    static func bash(_ script: String, _ arguments: [String] = [], stdin: [UInt8]? = nil, timeout: Double = 300,
                     sourceLocation: SourceLocation = #_sourceLocation) -> CommandOutput {
        run("bash", ["-c", script, "bash"] + arguments, stdin: stdin, timeout: timeout, sourceLocation: sourceLocation)
    }

    /// Runs `body` (bash, the path in "$f") once per path, paths given as raw bytes (so names that
    /// are not UTF-8 work) and passed NUL-separated on stdin. `body` prints `fields` values, each
    /// followed by a NUL (`printf '%s\0' …`). Returns one array of fields per path, in order.
    static func forEachPath(_ paths: [[UInt8]], fields: Int, _ body: String,
                            sourceLocation: SourceLocation = #_sourceLocation) -> [[String]] {
        let script = "while IFS= read -r -d '' f; do\n\(body)\ndone"
        let output = bash(script, stdin: paths.flatMap { $0 + [0] }, sourceLocation: sourceLocation)
        let values = output.nulFields.map { String(decoding: $0, as: UTF8.self) }
        guard output.status == 0, values.count == paths.count * fields else {
            Issue.record("per-file script gave \(values.count) fields for \(paths.count) paths × \(fields) (exit \(output.status)): \(output.err)",
                         sourceLocation: sourceLocation)
            return paths.map { _ in Array(repeating: "", count: fields) }
        }
        return stride(from: 0, to: values.count, by: fields).map { Array(values[$0..<$0 + fields]) }
    }

    static func resolve(_ executable: String) -> String {
        if executable.contains("/") { return executable }
        let path = ProcessInfo.processInfo.environment["PATH"].map { $0 + ":" + standardPath } ?? standardPath
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(executable)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return "/usr/bin/\(executable)"
    }

    private static func spawn(_ group: DispatchGroup?, _ body: @escaping @Sendable () -> Void) {
        group?.enter()
        let thread = Thread {
            body()
            group?.leave()
        }
        thread.start()
    }
}

/// A mutable cell handed to another thread that is waited for before it is read.
final class Box<T>: @unchecked Sendable {
    var value: T
    init(_ value: T) { self.value = value }
}

/// Polls `condition` every `interval` until it holds or `timeout` passes; true if it held.
func eventually(timeout: Double = 10, interval: Double = 0.2, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
        if condition() { return true }
        if Date() >= deadline { return false }
        Thread.sleep(forTimeInterval: interval)
    }
}
