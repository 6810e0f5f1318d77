import MountModel

/// `assetfs --help`, and `assetfs COMMAND --help`.
enum Help {
    static let subcommands = ["render", "warm", "stats", "thumbnails", "cache", "skipped", "broken", "locate", "formats", "manual"]

    /// What `assetfs COMMAND --help` prints: the command's own usage text, else its line of
    /// the synopsis above.
    static func usage(of command: String) -> String {
        switch command {
        case "render": return RenderCommand.usage
        case "thumbnails": return ThumbnailsCommand.usage
        case "skipped": return SkippedCommand.usage
        case "broken": return BrokenCommand.usage
        case "locate": return LocateCommand.usage
        case "formats": return FormatsCommand.usage
        case "manual": return ManualPage.usage
        default:
            let line = synopsis.split(separator: "\n").first { $0.contains("assetfs \(command) ") } ?? ""
            return "usage: \(line.drop { $0 == " " })\nsee 'assetfs --help' for the options"
        }
    }

    /// The sizes a mount shows unless told otherwise.
    private static let sizes = MountOptions().sizes

    /// `--help`, made of the parts below (the manual page is made of them too).
    static let text = """
        \(synopsis)

        \(layout)

        \(oneMountPerCache)

        options:
        \(flagLines.joined(separator: "\n"))
          -o OPT[,OPT...]        mount options:
        \(MountOption.helpLines(indent: 5).joined(separator: "\n"))
        \(fuseOptionLines.joined(separator: "\n"))

        signals:
        \(signalLines.joined(separator: "\n"))

        example:
          mkdir -p /mnt/assets && assetfs -o cache_size=2G ~/Pictures /mnt/assets
          fusermount3 -u /mnt/assets        # unmount
        """

    static let synopsis = """
        usage: assetfs [OPTIONS] SOURCE MOUNTPOINT
               assetfs render [--size N] [--quality Q] INPUT OUTPUT
               assetfs warm [--sizes thumbnail,fullscreen,...|all] [-o OPTIONS] SOURCE
               assetfs stats MOUNTPOINT
               assetfs thumbnails [--source] [--sizes normal,large] [--force] MOUNTPOINT
               assetfs cache stats|prune|clear|check [-o OPTIONS] SOURCE
               assetfs skipped [-0] [-o OPTIONS] SOURCE
               assetfs broken [-0] [-o OPTIONS] SOURCE|MOUNTPOINT
               assetfs locate [-0] [-o OPTIONS] FILE...
               assetfs formats
               assetfs manual
        """

    static let layout = """
        Mounts the photo and video folder SOURCE read-only on MOUNTPOINT as
          MOUNTPOINT/groups/<album>/thumbnail.jpg           album poster
          MOUNTPOINT/groups/<album>/<asset>/thumbnail.jpg   longest side \(sizes.thumbnail.longestSide) px (a video's poster)
          MOUNTPOINT/groups/<album>/<asset>/fullscreen.jpg  longest side \(sizes.fullscreen.longestSide) px
          MOUNTPOINT/groups/<album>/<asset>/original.jpg    the file itself (.heic, .nef, .mov...
                                                            for other formats)
          MOUNTPOINT/groups/<album>/<asset>/motion.mp4      a Motion Photo's video (.mov: a Live Photo's)
          MOUNTPOINT/thumbnails/<album>/<asset>.jpg         the same thumbnails, one size only
          MOUNTPOINT/fullscreen/<album>/<asset>.jpg         the same fullscreens
          MOUNTPOINT/dates/<YYYY>/<YYYY-MM-DD>/<asset>/     every photo by the day it was taken
          MOUNTPOINT/ids/<id>                               a link to the asset folder of that content id
        and goes to the background once the mount is ready (a first mount of a SOURCE scans it
        first; later ones serve the stored tree at once).
        """

    static let oneMountPerCache = """
        One mount per cache: a second mount of SOURCE with the same cache is refused, naming the
        first (give it -o cache=FILE of its own). Beside a mount, warm renders into the cache they
        share but never scans the catalog the mount keeps (refused while the mount has not written a
        whole scan of it); cache stats|check|prune|clear, skipped and broken run as usual.
        """

    /// The command's own flags and the FUSE options it passes on, as `--help` lists them.
    static let flagLines = [
        "  -f                     stay in the foreground (log to stderr)",
        "  -d                     foreground with debug logging",
        "  -s                     single-threaded",
        "  -h, --help             this text",
        "  -V, --version          the version",
    ]
    static let fuseOptionLines = [
        "     allow_other         let other users in (needs user_allow_other in /etc/fuse.conf",
        "                         unless root); each reads only what SOURCE lets them read,",
        "                         folders above SOURCE and ACLs included",
        "     fsname=NAME, and the other standard FUSE options (see mount.fuse3(8))",
    ]
    static let signalLines = [
        "  SIGHUP                 a mount in the background reopens its log file (-o log=FILE, after",
        "                         logrotate moved it) and goes on serving; in the foreground (-f, -d)",
        "                         it unmounts: the terminal went away",
        "  SIGINT, SIGTERM        unmount and exit, as 'fusermount3 -u MOUNTPOINT' does",
    ]
}
