import Foundation
import Glibc
import Posix

/// Tells which folders of the source changed: inotify on every folder read (added before the
/// folder is read, so nothing slips between), and on the folder that holds the root (so SOURCE
/// deleted, renamed or re-plugged at its path is seen). A burst of events settles for a short
/// quiet period and becomes one piece of work naming just the folders touched. All work, the
/// first scan included, runs on the watcher's one thread, so two readings of a folder never race.
public final class SourceWatcher: Sendable {
    /// What to bring up to date.
    public enum Work: Sendable, Equatable {
        /// Everything: at start, after a queue overflow, when SOURCE came or went, periodically.
        case everything
        /// Just these folders (relative to the root).
        case folders(Set<FilePath>)
    }

    private let root: FilePath
    /// Does `work`; returns after how many seconds to check everything again by itself (SOURCE
    /// is away, or some folders could not be watched), or nil for "only on events".
    /// It is given the watcher, to watch the folders it reads and to ask whether to go on, so
    /// that it need not hold the watcher (which holds it).
    private let perform: @Sendable (SourceWatcher, Work) -> Double?
    /// inotify's descriptor and a pipe that wakes the thread up (for a poke, or to stop), owned:
    /// closed with the watcher. nil where they could not be made.
    private let inotifyOwner: OwnedFileDescriptor?, wakeupOwner: PipeEnds?
    /// Their numbers for the calls, -1 where there is none (poll passes over it). Copied out
    /// once: an optional non-copyable property of a class cannot be borrowed through `?.`.
    private let inotify: Int32
    private let wakeup: (read: Int32, write: Int32)
    /// The watches, and what the thread is asked to do: shared by the thread and its callers.
    private struct State {
        var folders: [Int32: FilePath] = [:]
        var descriptors: [FilePath: Int32] = [:]
        var watchedRoot: FileStatus?
        var parentWatch: Int32 = -1
        var warnedWatchLimit = false
        var unwatched = false
        var stopping = false
        var poked: Set<FilePath> = []
        var started = false
    }
    private let state = Locked(State())
    private let finished = DispatchSemaphore(value: 0)
    public static let quietPeriod: Double = 0.3
    /// How often everything is checked when some folders could not be watched (`-o recheck=`).
    public let verificationInterval: Double
    /// How often a SOURCE that is away is looked for.
    public static let recheckOffline: Double = 2

    public init(root: FilePath, verificationInterval: Double = 600, perform: @escaping @Sendable (SourceWatcher, Work) -> Double?) {
        self.root = root
        self.verificationInterval = verificationInterval
        self.perform = perform
        inotify = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        if inotify < 0 { Log.warning("inotify unavailable (\(Errno.current)); the source is checked every \(Int(verificationInterval)) s instead") }
        inotifyOwner = inotify < 0 ? nil : OwnedFileDescriptor(adopting: inotify)
        if let ends = try? PipeEnds() {
            wakeup = (ends.read.rawValue, ends.write.rawValue)
            for end in [wakeup.read, wakeup.write] { _ = fcntl(end, F_SETFL, O_NONBLOCK) }
            wakeupOwner = .some(ends)
        } else {
            wakeup = (-1, -1)
            wakeupOwner = nil
        }
    }

    /// Watches `folder` (relative to the root): call before reading it.
    public func add(_ folder: FilePath) {
        guard inotify >= 0 else { return }
        state.withLock { state in
            if folder.isEmpty { rewatchIfRootChanged(&state) }
            guard state.descriptors[folder] == nil else { return }
            let mask = UInt32(IN_CREATE | IN_DELETE | IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO | IN_ATTRIB
                              | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)
            let descriptor = root.appending(folder).withCString { inotify_add_watch(inotify, $0, mask) }
            if descriptor >= 0 {
                state.folders[descriptor] = folder
                state.descriptors[folder] = descriptor
            } else if Errno.current.rawValue == ENOSPC {
                state.unwatched = true
                if !state.warnedWatchLimit {
                    state.warnedWatchLimit = true
                    Log.warning("cannot watch every folder of \(root): the inotify watch limit is reached; raise it with 'sysctl fs.inotify.max_user_watches=1048576'. Unwatched folders are checked every \(Int(verificationInterval)) s")
                }
            }
        }
    }

    /// A root that is another folder than before (re-plugged, recreated) is watched afresh.
    private func rewatchIfRootChanged(_ state: inout State) {
        let now = try? FileStatus(path: root)
        if now?.device != state.watchedRoot?.device || now?.inode != state.watchedRoot?.inode {
            for descriptor in state.folders.keys { inotify_rm_watch(inotify, descriptor) }
            state.folders = [:]
            state.descriptors = [:]
            state.watchedRoot = now
        }
        if state.parentWatch < 0 {
            let parent = root.parent.isEmpty ? FilePath("/") : root.parent
            state.parentWatch = parent.withCString { inotify_add_watch(inotify, $0, UInt32(IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO)) }
        }
    }

    /// Asks for folder `folder` to be read again soon (a photo in it was not what the catalog said).
    public func poke(_ folder: FilePath) {
        state.withLock { _ = $0.poked.insert(folder) }
        wake()
    }

    /// Wakes the thread (a full pipe has woken it already).
    private func wake() {
        var one: UInt8 = 1
        _ = write(wakeup.write, &one, 1)
    }

    /// Starts the thread: with `checkFirst`, everything is brought up to date first; then events
    /// are followed.
    public func start(checkFirst: Bool) {
        // A watcher stopped already (a mount unmounted as it began serving) stays stopped.
        guard state.withLock({ state in
            guard !state.stopping else { return false }
            state.started = true
            return true
        }) else { return }
        let thread = Thread { [self] in
            run(checkFirst: checkFirst)
            finished.signal()
        }
        thread.name = "assetfs-watcher"
        thread.start()
    }

    /// Ends the thread and waits for it: no work runs after this returns.
    public func stop() {
        let wasStarted = state.withLock { state in
            state.stopping = true
            return state.started
        }
        wake()
        if wasStarted { finished.wait() }
    }

    public var isStopping: Bool { state.withLock { $0.stopping } }

    private func run(checkFirst: Bool) {
        Signals.blockTerminationInCurrentThread()
        // Checking SOURCE is background work: readers and renders go first.
        ThreadPriority.lowerCurrentThread()
        var recheck = checkFirst ? perform(self, .everything) : (hasUnwatchedFolders ? verificationInterval : nil)
        while !isStopping {
            guard wait(seconds: recheck ?? (inotify < 0 ? verificationInterval : 3600)) else {
                if recheck != nil || inotify < 0 { recheck = perform(self, .everything) }
                continue
            }
            var work = drain()
            // Let a burst of events settle, gathering them, then do the work once.
            while !isStopping, wait(seconds: Self.quietPeriod) { work = Self.merge(work, drain()) }
            if isStopping { return }
            if let work { recheck = perform(self, work) }
        }
    }

    private static func merge(_ a: Work?, _ b: Work?) -> Work? {
        switch (a, b) {
        case (nil, let other), (let other, nil): return other
        case (.everything?, _), (_, .everything?): return .everything
        case (.folders(let x)?, .folders(let y)?): return .folders(x.union(y))
        }
    }

    /// Waits for inotify events, a poke or the stop signal; false on timeout.
    private func wait(seconds: Double) -> Bool {
        var fds = [pollfd(fd: wakeup.read, events: Int16(POLLIN), revents: 0)]
        if inotify >= 0 { fds.append(pollfd(fd: inotify, events: Int16(POLLIN), revents: 0)) }
        return poll(&fds, nfds_t(fds.count), Int32(min(seconds, 86400) * 1000)) > 0
    }

    /// The work the queued events and pokes ask for.
    private func drain() -> Work? {
        var pending = [UInt8](repeating: 0, count: 64)
        while read(wakeup.read, &pending, pending.count) > 0 {}
        return state.withLock { state in events(&state) }
    }

    /// The folders the queued events and pokes name, under the lock that keeps the watches.
    private func events(_ state: inout State) -> Work? {
        var changed = state.poked
        state.poked = []
        var everything = false
        guard inotify >= 0 else { return changed.isEmpty ? nil : .folders(changed) }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        let rootName = root.lastComponent
        let header = MemoryLayout<inotify_event>.size
        while true {
            let count = buffer.withUnsafeMutableBytes { read(inotify, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            var offset = 0
            while offset + header <= count {
                let (descriptor, mask, nameLength) = buffer.withUnsafeBytes { raw in
                    let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    return (event.wd, event.mask, Int(event.len))
                }
                let name = Array(buffer[(offset + header)..<min(count, offset + header + nameLength)].prefix { $0 != 0 })
                offset += header + nameLength
                if mask & UInt32(IN_Q_OVERFLOW) != 0 { everything = true; continue }
                if descriptor == state.parentWatch {
                    if name == rootName { everything = true }
                    continue
                }
                guard let folder = state.folders[descriptor] else { continue }
                if mask & UInt32(IN_IGNORED) != 0 {
                    state.folders[descriptor] = nil
                    state.descriptors[folder] = nil
                } else if mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF) != 0 {
                    if folder.isEmpty { everything = true } else { changed.insert(folder.parent) }
                } else {
                    changed.insert(folder)
                }
            }
        }
        if everything { return .everything }
        return changed.isEmpty ? nil : .folders(changed)
    }

    /// Whether some folders could not be watched (their changes are found by periodic checks).
    public var hasUnwatchedFolders: Bool {
        state.withLock { $0.unwatched } || inotify < 0
    }
}
