import Foundation
import Glibc
import Posix

/// Tells when the source tree changes: inotify on every folder, with a short quiet period so a
/// copy of 500 photos is one rescan, not 500. Where inotify is unavailable, or its queue
/// overflowed, changes are still found by a periodic rescan.
public final class SourceWatcher: @unchecked Sendable {
    private let root: FilePath
    private let onChange: @Sendable () -> Void
    private let inotify: Int32
    private let lock = NSLock()
    private var watched: Set<FilePath> = []
    public static let quietPeriod: Double = 0.3
    public static let fallbackInterval: Double = 5

    /// Calls `onChange` (on the watcher's own thread) after changes under `root`.
    public init(root: FilePath, onChange: @escaping @Sendable () -> Void) {
        self.root = root
        self.onChange = onChange
        inotify = inotify_init1(Int32(IN_CLOEXEC))
        if inotify < 0 { Log.warning("inotify unavailable (\(Errno.current)); rescanning every \(Int(Self.fallbackInterval)) s instead") }
    }

    /// Watches `folders` (relative to the root); call again after each rescan. Returns whether any
    /// folder is new: what changed in it between the scan and now was not seen, so scan again.
    @discardableResult
    public func watch(_ folders: [FilePath]) -> Bool {
        guard inotify >= 0 else { return false }
        lock.lock()
        defer { lock.unlock() }
        let added = folders.contains { !watched.contains($0) }
        let mask = UInt32(IN_CREATE | IN_DELETE | IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF)
        for folder in folders where !watched.contains(folder) {
            _ = root.appending(folder).withCString { inotify_add_watch(inotify, $0, mask) }
        }
        watched = Set(folders)
        return added
    }

    /// Starts the watching thread.
    public func start() {
        let thread = Thread { [self] in run() }
        thread.name = "assetfs-watcher"
        thread.start()
    }

    private func run() {
        Signals.blockTerminationInCurrentThread()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            guard inotify >= 0 else {
                Thread.sleep(forTimeInterval: Self.fallbackInterval)
                onChange()
                continue
            }
            var poller = pollfd(fd: inotify, events: Int16(POLLIN), revents: 0)
            if poll(&poller, 1, Int32(Self.fallbackInterval * 1000 * 12)) <= 0 { continue }
            _ = buffer.withUnsafeMutableBytes { read(inotify, $0.baseAddress, $0.count) }
            // Let a burst of events settle, draining them, then rescan once.
            while true {
                var more = pollfd(fd: inotify, events: Int16(POLLIN), revents: 0)
                if poll(&more, 1, Int32(Self.quietPeriod * 1000)) <= 0 { break }
                _ = buffer.withUnsafeMutableBytes { read(inotify, $0.baseAddress, $0.count) }
            }
            onChange()
        }
    }
}
