/// assetfs's own `-o` options, defined once: their names, what each takes and its help text with
/// its default, in the order `--help` prints them (README's copy of `--help` is checked against
/// it by a test). The command line parses exactly these keys.
public struct MountOptionSchema: Sendable {
    /// `cache_size`.
    public let name: String
    /// `SIZE` in `cache_size=SIZE`; nil for a flag.
    public let value: String?
    /// Its lines in `--help`, the default among them.
    public let help: [String]

    public static let defaultCacheBytes: Int64 = 1 << 30
    public static let defaultRecheckSeconds = 600

    public static let all: [MountOptionSchema] = {
        let defaults = MountOptions(), sizes = RenditionSizes()
        return [
            .init("cache", "FILE", ["the cache database (default ~/.cache/assetfs/<source>-<hash>.sqlite);",
                                    "one mount per cache: a second mount of SOURCE needs a cache=FILE of its own"]),
            .init("cache_size", "SIZE", ["cache size cap, e.g. 512M, 2G (default \(defaultCacheBytes >> 30)G; least recently used go first)"]),
            .init("decode_memory", "SIZE", ["memory the renders running at once may hold for whole-image decodes",
                                            "(progressive JPEG, HEIC/AVIF, interlaced PNG); a photo that alone needs",
                                            "more waits to run alone (default 512M, or a quarter of the RAM below 2G)"]),
            .init("thumbnail_size", "N", ["longest side of thumbnail.jpg (default \(sizes.thumbnail.longestSide))"]),
            .init("fullscreen_size", "N", ["longest side of fullscreen.jpg (default \(sizes.fullscreen.longestSide))"]),
            .init("sizes", "NAME:PX[+...]", ["more sizes: medium:1024 adds medium.jpg (longest side 1024 px) to",
                                            "every asset folder and the view medium/<album>/<asset>.jpg",
                                            "(names: lower-case letters, digits, - and _; up to \(RenditionSizes.maximumCount) sizes)"]),
            .init("quality", "Q", ["JPEG quality of renditions, 1-100 (default \(defaults.quality))"]),
            .init("follow_symlinks", nil, ["follow symbolic links that lead outside SOURCE (default: only inside)"]),
            .init("show_housekeeping", nil, ["show NAS and OS housekeeping folders (@eaDir, #recycle,",
                                             "$RECYCLE.BIN, lost+found, ...) as albums; skipped by default"]),
            .init("broken", "placeholder", ["a photo that cannot be rendered shows a neutral placeholder picture, its",
                                            "reason in the asset folder's user.assetfs.error (default); broken=error: EIO"]),
            .init("log", "FILE", ["where the mount logs once in the background (default: syslog, or",
                                  "where /dev/log is missing $XDG_STATE_HOME/assetfs/assetfs.log,",
                                  "else ~/.local/state/assetfs/assetfs.log)"]),
            .init("recheck", "SECONDS", ["how often SOURCE is checked where inotify cannot watch it (the",
                                         "fs.inotify.max_user_watches limit; default \(defaultRecheckSeconds))"]),
        ]
    }()

    /// Every key the parser takes: ours, and `rw`, `dev`, `suid`, which mount.fuse3 adds (taken
    /// and overridden: the mount is always read-only, nodev, nosuid).
    public static let keys = Set(all.map(\.name) + ["rw", "dev", "suid"])

    /// The options as `--help` lists them, indented by `indent` spaces.
    public static func helpLines(indent: Int) -> [String] {
        let margin = String(repeating: " ", count: indent)
        return all.flatMap { option in
            let head = option.name + (option.value.map { "=" + $0 } ?? "")
            let first = head.count < 20 ? head + String(repeating: " ", count: 20 - head.count) : head + " "
            return [margin + first + option.help[0]] + option.help.dropFirst().map { margin + String(repeating: " ", count: 20) + $0 }
        }
    }

    private init(_ name: String, _ value: String?, _ help: [String]) {
        (self.name, self.value, self.help) = (name, value, help)
    }
}
