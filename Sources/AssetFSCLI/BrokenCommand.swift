import AssetFS
import Posix

/// `assetfs broken [-0] [-o OPTS] SOURCE|MOUNTPOINT`: the assets a mount shows as broken, one per
/// line: the reason their asset folder's `user.assetfs.error` gives, a tab, and the asset folder's
/// path in the mount, quoted as `skipped` quotes (`-0`: the path raw, the line ended by NUL). The
/// reason is one line: its control characters and backslashes are quoted the same way. A
/// MOUNTPOINT stands for the SOURCE it shows (its fsname in /proc/self/mountinfo).
struct BrokenCommand {
    static let usage = """
        usage: assetfs broken [-0] [-o OPTIONS] SOURCE|MOUNTPOINT
        The assets a mount of SOURCE shows as broken, one per line: the reason (as the asset
        folder's user.assetfs.error), a tab, the asset folder's path in the mount (groups/...,
        quoted as 'ls -b' does). -0: raw paths, each line ended by NUL. Give -o cache=FILE if the
        mount was given one.
        """
    let arguments: ListingArguments

    init(arguments: [String]) throws(UsageError) {
        self.arguments = try ListingArguments(arguments, command: "broken", usage: Self.usage, acceptsMountpoint: true)
    }

    func run() throws(UsageError) -> Int32 {
        let realSource = try arguments.scannedSource(), configuration = arguments.configuration
        // No cache yet: nothing was found broken, and none is made just to say so.
        let cachePath = configuration.cachePath(for: realSource)
        let store = (try? FileStatus(path: cachePath)) == nil ? nil : try? configuration.openStore(for: realSource)
        let fileSystem = AssetFileSystem(source: realSource, options: configuration.mount, cache: CacheConnection { store },
                                         catalog: configuration.catalogOpener(for: realSource),
                                         renderer: configuration.renderer, renderThreads: 1)
        defer { fileSystem.shutdown() }
        var output: [UInt8] = []
        for asset in fileSystem.catalog.read({ fileSystem.brokenAssets(in: $0) }) {
            let path = asset.mountPath.bytes
            output += SkippedCommand.escaped(Array(asset.reason.utf8), spaces: false) + [0x09]
                + (arguments.nulTerminated ? path + [0] : SkippedCommand.escaped(path) + [0x0A])
        }
        try? FileDescriptor.standardOutput.writeAll(output)
        return 0
    }
}
