import MountModel
import PhotoSource
import Posix
import Synchronization

/// Keeps a served tree in step with SOURCE: a first mount's scan (or a remount's check of the
/// stored tree, in the background), then the watcher's events, and the photos' properties read
/// after each; whatever that makes stale goes to the kernel (`AssetFileSystem.kernel`). The
/// command line starts and stops it; no change passes through it.
public final class SourceFollower: Sendable {
    private let fileSystem: AssetFileSystem
    private let watcher: SourceWatcher
    /// Whether `prepare` scanned SOURCE whole (then `start` need not check it again).
    private let scanned = Atomic(false)

    /// `recheckSeconds`: how often SOURCE is read again where inotify cannot watch it (and every
    /// 2 s while SOURCE is away).
    public init(_ fileSystem: AssetFileSystem, recheckSeconds: Double) {
        self.fileSystem = fileSystem
        watcher = SourceWatcher(root: fileSystem.root, verificationInterval: recheckSeconds) { watcher, work in
            let online = fileSystem.synchronize(work, watch: { [weak watcher] in watcher?.add($0) }, shouldContinue: { [weak watcher] in watcher?.isStopping == false })
            if work == .everything { fileSystem.logSummary("checked") }
            if !online { return SourceWatcher.recheckOffline }
            return watcher.hasUnwatchedFolders ? recheckSeconds : nil
        }
        fileSystem.whenFolderLooksChanged { [weak watcher] in watcher?.poke($0) }
    }

    /// Before the mount serves: a catalog never scanned whole is scanned now (a first mount
    /// serves no partial listing; `progress` counts its folders). A complete one is served as
    /// stored, and checked once `start` runs.
    public func prepare(progress: (Int) -> Void = { _ in }) {
        guard !fileSystem.catalog.read({ $0.isComplete }) else { return }
        fileSystem.synchronize(.everything, watch: { [watcher] in watcher.add($0) }, progress: progress)
        scanned.store(true, ordering: .relaxed)
    }

    /// Once the mount serves, and logs where it will log from now on (what the check finds is
    /// logged there): follows SOURCE's changes, checks a stored tree against SOURCE in the
    /// background, and reads the photos' properties.
    public func start() {
        watcher.start(checkFirst: !scanned.load(ordering: .relaxed))
        fileSystem.readPropertiesInBackground()
    }

    public func stop() { watcher.stop() }
}

/// "1 album", "3 albums".
public func counted(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }

extension AssetFileSystem {
    /// "serving: 3 albums, 120 photos, 2 files skipped" (and whether SOURCE is offline).
    public func logSummary(_ how: String) {
        let counts = catalog.read { $0.counts }
        Log.info("\(how): \(counted(counts.albums, "album")), \(counted(counts.photos, "photo")), \(counted(counts.skipped, "file")) skipped\(isSourceOnline ? "" : " (SOURCE is offline: serving the stored tree)")")
    }
}
