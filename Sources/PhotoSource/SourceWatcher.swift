import Foundation
import Glibc
import Posix

/// Tells when the source tree changes: inotify on every folder, and on the folder that holds the
/// root (so SOURCE deleted, renamed or re-plugged at its path is seen), with a short quiet period
/// so a copy of 500 photos is one rescan, not 500. Where inotify is unavailable, its queue
/// overflowed, or SOURCE is away, the source is checked again periodically.
public final class SourceWatcher: @unchecked Sendable {
    private let root: FilePath
    /// Called after changes, on the watcher's thread; returns whether to keep checking
    /// periodically (the source is away, or not all of it is watched).
    private let onChange: @Sendable () -> Bool
    private let inotify: Int32
    /// A pipe that wakes the thread up: for a poke, or to stop.
    private let wakeup: (read: Int32, write: Int32)
    private let lock = NSLock()
    private var watched: [FilePath: Int32] = [:]
    private var watchedRoot: (device: UInt64, inode: UInt64)?
    private var parentWatch: Int32 = -1
    private var warnedWatchLimit = false
    private var stopping = false
    private var poked = false
    private let finished = DispatchSemaphore(value: 0)
    private var started = false
    public static let quietPeriod: Double = 0.3
    public static let recheckInterval: Double = 2

    public init(root: FilePath, onChange: @escaping @Sendable () -> Bool) {
        self.root = root
        self.onChange = onChange
        inotify = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        var ends: [Int32] = [-1, -1]
        _ = pipe(&ends)
        for end in ends where end >= 0 {
            _ = fcntl(end, F_SETFL, O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        wakeup = (ends[0], ends[1])
        if inotify < 0 { Log.warning("inotify unavailable (\(Errno.current)); checking the source every \(Int(Self.recheckInterval)) s instead") }
    }

    deinit {
        if inotify >= 0 { close(inotify) }
        for end in [wakeup.read, wakeup.write] where end >= 0 { close(end) }
    }

    /// Watches `folders` (relative to the root) and the root's parent; call again after each
    /// rescan. A root that is a different folder than before (re-plugged, recreated) is watched
    /// afresh. Returns whether any folder is new: what changed in it between the scan and now was
    /// not seen, so scan again.
    @discardableResult
    public func watch(_ folders: [FilePath]) -> Bool {
        guard inotify >= 0 else { return false }
        lock.lock()
        defer { lock.unlock() }
        let status = try? FileStatus(path: root)
        let rootNow = status.map { ($0.device, $0.inode) }
        if rootNow?.0 != watchedRoot?.device || rootNow?.1 != watchedRoot?.inode {
            for descriptor in watched.values { inotify_rm_watch(inotify, descriptor) }
            watched = [:]
            watchedRoot = rootNow.map { (device: $0.0, inode: $0.1) }
        }
        if parentWatch < 0 {
            let parent = FilePath(bytes: Array(root.bytes[..<(root.bytes.lastIndex(of: UInt8(ascii: "/")) ?? 0)]))
            parentWatch = (parent.isEmpty ? FilePath("/") : parent).withCString {
                inotify_add_watch(inotify, $0, UInt32(IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO))
            }
        }
        guard status?.isDirectory == true else { return false }
        let wanted = Set(folders)
        for (folder, descriptor) in watched where !wanted.contains(folder) {
            inotify_rm_watch(inotify, descriptor)
            watched[folder] = nil
        }
        let mask = UInt32(IN_CREATE | IN_DELETE | IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO | IN_ATTRIB
                          | IN_DELETE_SELF | IN_MOVE_SELF | IN_UNMOUNT)
        var added = false
        for folder in folders where watched[folder] == nil {
            let descriptor = root.appending(folder).withCString { inotify_add_watch(inotify, $0, mask) }
            if descriptor >= 0 {
                watched[folder] = descriptor
                added = true
            } else if Errno.current.rawValue == ENOSPC, !warnedWatchLimit {
                warnedWatchLimit = true
                Log.warning("cannot watch every folder of \(root): the inotify watch limit is reached; raise it with 'sysctl fs.inotify.max_user_watches=1048576'. Changes in unwatched folders are found by periodic checks")
            }
        }
        return added
    }

    /// Starts the watching thread.
    public func start() {
        lock.lock()
        started = true
        lock.unlock()
        let thread = Thread { [self] in
            run()
            finished.signal()
        }
        thread.name = "assetfs-watcher"
        thread.start()
    }

    /// Ends the watching thread and waits for it: no `onChange` runs after this returns.
    public func stop() {
        lock.lock()
        stopping = true
        let wasStarted = started
        lock.unlock()
        var one: UInt8 = 1
        _ = write(wakeup.write, &one, 1)
        if wasStarted { finished.wait() }
    }

    private var isStopping: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopping
    }

    private func run() {
        Signals.blockTerminationInCurrentThread()
        var recheck = inotify < 0
        while !isStopping {
            let timeout = recheck ? Self.recheckInterval : 3600
            guard wait(seconds: timeout) else {
                if recheck { recheck = onChange() }  // the periodic check
                continue
            }
            var relevant = drain()
            // Let a burst of events settle, draining them, then rescan once.
            while !isStopping, wait(seconds: Self.quietPeriod) { relevant = drain() || relevant }
            if isStopping { return }
            if relevant || recheck { recheck = onChange() || inotify < 0 }
        }
    }

    /// Asks for a check of the source soon (a photo was not what the catalog said).
    public func poke() {
        lock.lock()
        poked = true
        lock.unlock()
        var one: UInt8 = 1
        _ = write(wakeup.write, &one, 1)
    }

    /// Waits for inotify events, a poke or the stop signal; false on timeout.
    private func wait(seconds: Double) -> Bool {
        var fds = [pollfd(fd: wakeup.read, events: Int16(POLLIN), revents: 0)]
        if inotify >= 0 { fds.append(pollfd(fd: inotify, events: Int16(POLLIN), revents: 0)) }
        return poll(&fds, nfds_t(fds.count), Int32(seconds * 1000)) > 0
    }

    /// Reads the queued events; whether any concerns the source (in the root's parent, only
    /// events naming the root do). A queue overflow counts: something was missed; so does a poke.
    private func drain() -> Bool {
        var pending = [UInt8](repeating: 0, count: 64)
        while read(wakeup.read, &pending, pending.count) > 0 {}
        lock.lock()
        var relevant = poked
        poked = false
        lock.unlock()
        guard inotify >= 0 else { return true }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        let rootName = root.lastComponent
        while true {
            let count = buffer.withUnsafeMutableBytes { read(inotify, $0.baseAddress, $0.count) }
            guard count > 0 else { return relevant }
            var offset = 0
            let header = MemoryLayout<inotify_event>.size
            while offset + header <= count {
                let (descriptor, mask, nameLength) = buffer.withUnsafeBytes { raw in
                    let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    return (event.wd, event.mask, Int(event.len))
                }
                let nameBytes = buffer[(offset + header)..<min(count, offset + header + nameLength)]
                let name = Array(nameBytes.prefix { $0 != 0 })
                if mask & UInt32(IN_Q_OVERFLOW) != 0 || descriptor != parentWatch || name == rootName { relevant = true }
                offset += header + nameLength
            }
        }
    }
}
