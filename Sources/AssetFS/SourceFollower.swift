import MountModel
import PhotoSource
import Posix

/// Keeps a served tree in step with SOURCE: a first mount's scan (or a remount's check of the
/// stored tree, in the background), then the watcher's events, and the photos' properties read
/// after each; whatever that makes stale goes to the kernel (`AssetFileSystem.kernel`). The
/// command line starts and stops it; no change passes through it.
public final class SourceFollower: Sendable {
    private let fileSystem: AssetFileSystem
    private let watcher: SourceWatcher

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

    /// Follows SOURCE from now on. A catalog never scanned whole is scanned first, before this
    /// returns (a first mount serves no partial listing; `progress` counts its folders); a
    /// complete one is served at once and checked against SOURCE in the background.
    public func start(progress: (Int) -> Void = { _ in }) {
        let firstScan = !fileSystem.catalog.isComplete
        if firstScan { fileSystem.synchronize(.everything, watch: { [watcher] in watcher.add($0) }, progress: progress) }
        watcher.start(checkFirst: !firstScan)
        fileSystem.readPropertiesInBackground()
    }

    public func stop() { watcher.stop() }
}

/// "1 album", "3 albums".
public func counted(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }

extension AssetFileSystem {
    /// "serving: 3 albums, 120 photos, 2 files skipped" (and whether SOURCE is offline).
    public func logSummary(_ how: String) {
        let counts = catalog.counts
        Log.info("\(how): \(counted(counts.albums, "album")), \(counted(counts.photos, "photo")), \(counted(counts.skipped, "file")) skipped\(isSourceOnline ? "" : " (SOURCE is offline: serving the stored tree)")")
    }
}
