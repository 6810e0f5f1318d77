import Posix

/// Folders of SOURCE that are bind mounts of other folders of SOURCE (`mount --bind SRC/A SRC/B`):
/// the same folder reached twice without a link, so `FolderReader` shows it once, at its own path.
/// The mount table is read again at most every few seconds.
final class BindMounts: Sendable {
    let root: FilePath
    private let known = Locked<(duplicates: [FilePath: FilePath], at: ContinuousClock.Instant)?>(nil)
    static let freshness = Duration.seconds(5)

    init(root: FilePath) { self.root = root }

    /// The folder inside SOURCE that `path` (a folder inside SOURCE) is a bind mount of, if any.
    func original(of path: FilePath) -> FilePath? {
        let now = ContinuousClock.now
        if let known = known.withLock({ $0 }), now - known.at < Self.freshness { return known.duplicates[path] }
        let duplicates = Self.duplicates(in: (try? MountTable.entries()) ?? [], inside: root)
        known.withLock { $0 = (duplicates, now) }
        return duplicates[path]
    }

    /// Each mount point inside `root` whose folder is also reachable at another path inside `root`,
    /// with that path: a mount shows folder `root` of its filesystem, which another mount of the
    /// same filesystem shows at its mount point plus the rest of that path.
    static func duplicates(in entries: [MountTable.Entry], inside root: FilePath) -> [FilePath: FilePath] {
        var found: [FilePath: FilePath] = [:]
        for bind in entries where FolderReader.contains(root, FilePath(bytes: bind.mountpoint)) && FilePath(bytes: bind.mountpoint) != root {
            for other in entries where other.device == bind.device && other.mountpoint != bind.mountpoint
                && FolderReader.contains(FilePath(bytes: other.root), FilePath(bytes: bind.root)) {
                let rest = bind.root.dropFirst(other.root == [UInt8(ascii: "/")] ? 0 : other.root.count)
                let original = FilePath(bytes: other.mountpoint == [UInt8(ascii: "/")] ? Array(rest) : other.mountpoint + rest)
                let mountpoint = FilePath(bytes: bind.mountpoint)
                if FolderReader.contains(root, original), !FolderReader.contains(mountpoint, original) {
                    found[mountpoint] = original
                    break
                }
            }
        }
        return found
    }
}
