import Catalog
import MountModel

extension MountOption {
    /// assetfs's own `-o` options, in the order `--help` and the manual page list them.
    static let all: [MountOption] = [
        .file("cache", example: "~/.cache/assetfs/pictures.sqlite",
              "the cache database; one mount per cache: a second mount of SOURCE needs a cache=FILE of its own",
              defaultValue: .rule("~/.cache/assetfs/<source>-<hash>.sqlite"), sets: \.cacheFile),
        .size("cache_size", "cache size cap, e.g. 512M, 2G; least recently used go first", sets: \.cacheSize),
        .size("decode_memory", atLeast: Configuration.minimumDecodeMemory, why: "a 12-megapixel progressive JPEG needs about 36M",
              "memory the renders running at once may hold for whole-image decodes (progressive JPEG, HEIC/AVIF, interlaced PNG); a photo that alone needs more waits to run alone",
              defaultValue: .rule("\(ByteSize.text(Configuration.decodeMemoryCap)), or a quarter of the RAM below \(ByteSize.text(4 * Configuration.decodeMemoryCap))"),
              sets: \.decodeMemoryBytes),
        .number("thumbnail_size", "N", in: RenditionSizes.longestSides, "longest side of thumbnail.jpg", sets: \.thumbnailSide),
        .number("fullscreen_size", "N", in: RenditionSizes.longestSides, "longest side of fullscreen.jpg", sets: \.fullscreenSide),
        MountOption(name: "sizes", placeholder: "NAME:PX[+...]",
                    summary: "more sizes: medium:1024 adds medium.jpg (longest side 1024 px) to every asset folder and the view medium/<album>/<asset>.jpg (names: lower-case letters, digits, - and _; up to \(RenditionSizes.maximumCount) sizes)",
                    defaultValue: .off) { configuration, text throws(UsageError) in
            do throws(RenditionSizes.SizeError) { try configuration.mount.sizes.add(parsing: text) } catch {
                throw UsageError("-o sizes=\(text): \(error)")
            }
        },
        .number("quality", "Q", in: 1...100, "JPEG quality of renditions, 1-100", sets: \.mount.quality),
        .flag("follow_symlinks", "follow symbolic links that lead outside SOURCE (default: only inside)", sets: \.mount.followSymlinks),
        .flag("show_housekeeping", "show NAS and OS housekeeping folders (@eaDir, #recycle, $RECYCLE.BIN, lost+found, ...) as albums; skipped by default", sets: \.mount.showsHousekeeping),
        .choice("broken", "what a photo that cannot be rendered shows: placeholder, a neutral picture with the reason in the asset folder's user.assetfs.error; error: EIO", sets: \.mount.brokenPhotos),
        MountOption(name: "views", placeholder: "LIST",
                    summary: "the views shown beside groups/, joined by +: \(CatalogView.allCases.map(MountLayout.viewName).joined(separator: ", ")); none for groups/ alone",
                    defaultValue: .value(CatalogView.allCases.map(MountLayout.viewName).joined(separator: "+"))) { configuration, text throws(UsageError) in
            var views: Set<CatalogView> = []
            for name in text.split(separator: "+") where name != "none" {
                guard let view = MountLayout.view(named: Array(name.utf8)) else { throw UsageError("-o views=\(text): no view is called \(name)") }
                views.insert(view)
            }
            configuration.mount.views = views
        },
        .file("log", example: "/var/log/assetfs.log", "where the mount logs once in the background",
              defaultValue: .rule("syslog, or where /dev/log is missing $XDG_STATE_HOME/assetfs/assetfs.log, else ~/.local/state/assetfs/assetfs.log"),
              sets: \.logFile),
        .number("recheck", "SECONDS", in: 1...86400,
                "how often SOURCE is checked where inotify cannot watch it (the fs.inotify.max_user_watches limit)", sets: \.recheckSeconds),
    ]
}
