import DesktopThumbnails
import Dispatch
import Glibc
import Posix
import Synchronization

/// `assetfs thumbnails [--source] [--sizes LIST] [--force] MOUNTPOINT`: seeds the Freedesktop
/// thumbnail cache of the user who runs it (`$XDG_CACHE_HOME/thumbnails`, what GNOME Files,
/// Thunar, Nemo and Dolphin look in first) for every file of a mounted library, so that a file
/// manager opening an album finds its icons there instead of reading every `original.jpg` and
/// `fullscreen.jpg` to draw them.
///
/// All pixels come from each asset's `thumbnail.jpg` (the album poster from itself): seeding
/// renders thumbnails only (those not cached yet), never a fullscreen, and never reads an original
/// or a source photo. What each thumbnail is checked against comes from `stat`, except for
/// `fullscreen.jpg`: its size is known only once it is rendered, so its thumbnails carry no
/// (optional) `Thumb::Size`, and its `Thumb::MTime` is the asset folder's, which assetfs gives
/// every file of the folder (the photo's modification time).
struct ThumbnailsCommand {
    static let usage = """
        usage: assetfs thumbnails [--source] [--sizes normal,large] [--force] MOUNTPOINT

        Writes desktop thumbnails (Freedesktop Thumbnail Managing Standard) for every file of the
        assetfs mount on MOUNTPOINT into the thumbnail cache of the user who runs it,
        $XDG_CACHE_HOME/thumbnails (default ~/.cache/thumbnails), where file managers look first:
        album posters and every file of every view (thumbnail.jpg, fullscreen.jpg, original.* and
        motion.* in groups/ and the views, the files of thumbnails/, fullscreen/ and the named sizes).
        Made from each asset's thumbnail.jpg (a video's poster), so it renders thumbnails only
        (never a fullscreen) and reads no original or video. Thumbnails still valid are kept.

        options:
          --source          also the photos in SOURCE (the folder mounted), for desktops without
                            thumbnailers for their formats
          --sizes LIST      normal (128 px), large (256 px), x-large (512 px), xx-large (1024 px);
                            default normal,large. None is larger than the mount's thumbnail.jpg
                            (mount with -o thumbnail_size=1024 for sharp x-large and xx-large)
          --force           write every thumbnail again, valid or not

        A photo that cannot be rendered gets failure entries where GLib looks for them
        (fail/gnome-thumbnail-factory/) for its original, motion file and source photo ("no
        picture"), so file managers do not try them again; its thumbnail.jpg and fullscreen.jpg show
        assetfs's placeholder, and so do their icons. Run it as the user who browses (not through
        sudo). Exits 1 if a thumbnail could not be written or a file not be looked at.
        """

    let mountpoint: String
    let includeSource: Bool
    let sizes: [ThumbnailSize]
    let force: Bool

    init(arguments: [String]) throws(UsageError) {
        var rest = arguments[...]
        var positional: [String] = [], source = false, force = false
        var sizes: [ThumbnailSize] = [.normal, .large]
        while let argument = rest.popFirst() {
            switch argument {
            case "--source": source = true
            case "--force": force = true
            case "--sizes":
                guard let list = rest.popFirst() else { throw UsageError("thumbnails: --sizes needs a list, e.g. --sizes normal,large") }
                sizes = try Self.parseSizes(list)
            case _ where argument.hasPrefix("--sizes="):
                sizes = try Self.parseSizes(String(argument.dropFirst("--sizes=".count)))
            case _ where argument.hasPrefix("-") && argument.count > 1:
                throw UsageError("thumbnails: unknown option '\(argument)'; see 'assetfs thumbnails --help'")
            default: positional.append(argument)
            }
        }
        guard positional.count == 1 else { throw UsageError("usage: assetfs thumbnails [--source] [--sizes normal,large] [--force] MOUNTPOINT") }
        mountpoint = positional[0]
        includeSource = source
        self.sizes = sizes
        self.force = force
    }

    static func parseSizes(_ list: String) throws(UsageError) -> [ThumbnailSize] {
        var sizes: [ThumbnailSize] = []
        for name in list.split(separator: ",") {
            guard let size = ThumbnailSize(rawValue: String(name)) else {
                throw UsageError("thumbnails: unknown size '\(name)' (normal, large, x-large, xx-large)")
            }
            if !sizes.contains(size) { sizes.append(size) }
        }
        guard !sizes.isEmpty else { throw UsageError("thumbnails: --sizes needs at least one of normal, large, x-large, xx-large") }
        return sizes.sorted()
    }

    func run() throws(UsageError) -> Int32 {
        guard let mount = try? FilePath(mountpoint).resolved() else { throw UsageError("thumbnails: MOUNTPOINT '\(mountpoint)' does not exist") }
        guard let entry = MountTable.entry(at: mount.bytes), entry.type == Array("fuse.assetfs".utf8) else {
            throw UsageError("thumbnails: '\(mountpoint)' is not an assetfs mount (mount one with 'assetfs SOURCE \(mountpoint)')")
        }
        var sourceRoot: FilePath?
        if includeSource {
            let source = FilePath(bytes: entry.source)
            guard (try? FileStatus(path: source))?.isDirectory == true else {
                throw UsageError("thumbnails: --source: the mount's SOURCE '\(source)' (its fsname in /proc/self/mountinfo) is not a folder here")
            }
            sourceRoot = source
        }
        let environment = ["XDG_CACHE_HOME", "HOME"].reduce(into: [String: String]()) { env, key in
            if let value = getenv(key) { env[key] = String(cString: value) }
        }
        guard let root = ThumbnailStore.defaultRoot(environment: environment) else {
            throw UsageError("thumbnails: neither XDG_CACHE_HOME nor HOME is set: no thumbnail folder to write to")
        }
        if geteuid() == 0, let user = getenv("SUDO_USER").map({ String(cString: $0) }), user != "root" {
            Log.warning("running as root through sudo: writing root's thumbnails (\(root)), not \(user)'s; run it as \(user) to seed theirs")
        }
        let store = ThumbnailStore(root: root, failureFolder: ThumbnailStore.glibFailureFolder, software: AssetFSCommand.version)

        let jobs: [Job]
        do { jobs = try Self.jobs(mount: mount, source: sourceRoot) } catch {
            throw UsageError("thumbnails: cannot list \(mount): \(error)")
        }
        let files = jobs.reduce(0) { $0 + $1.files.count }
        let posters = jobs.filter { $0.assetFolder == nil }.count
        let progress = Progress(total: jobs.count)
        let tally = Mutex(Outcome())
        let seeder = Seeder(store: store, sizes: sizes, force: force)
        DispatchQueue.concurrentPerform(iterations: jobs.count) { index in
            let outcome = seeder.seed(jobs[index])
            tally.withLock { $0.add(outcome) }
            progress.advance()
        }
        progress.finish()
        let result = tally.withLock { $0 }
        print("thumbnails: wrote \(result.written), already valid \(result.current), no picture \(result.unavailable), failed \(result.failed.count) (\(files) files of \(jobs.count - posters) photos and \(posters) albums; sizes \(sizes.map(\.rawValue).joined(separator: ",")); into \(root))")
        for reason in result.failed.sorted() { print("  failed: \(reason)") }
        return result.failed.isEmpty ? 0 : 1
    }

    // MARK: What to seed

    /// What a file is, for where its facts come from.
    enum Kind: Sendable {
        /// `thumbnail`: an asset's thumbnail; `largerSize`: its fullscreen or a named size.
        case poster, thumbnail, largerSize, original, source
        /// A Motion Photo's `motion.mp4` or a Live Photo's `motion.mov`: the still's picture stands for it.
        case motion
    }

    struct File: Sendable {
        var path: FilePath
        var kind: Kind
    }

    /// Files that share one picture: the album poster alone, or an asset's files (in the asset
    /// folder, in the views, and its source photo), all drawn from `picture`.
    struct Job: Sendable {
        var picture: FilePath
        /// The asset folder, for a photo's modification time and its `user.assetfs.error`; nil for a poster.
        var assetFolder: FilePath?
        var files: [File]
        /// The original's MIME type, as `user.assetfs.type` gives it (nil for a poster, or when unknown).
        var originalType: String? = nil
    }
}
