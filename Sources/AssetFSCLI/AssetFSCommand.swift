import Posix

/// The `assetfs` command line: mounting, and the subcommands beside it.
public enum AssetFSCommand {
    public static let version = "assetfs 0.1.0"

    public static func main(_ arguments: [String]) -> Int32 {
        do throws(UsageError) {
            switch arguments.first {
            case "--version", "-V":
                print(version)
                return 0
            case nil:
                throw UsageError("missing SOURCE and MOUNTPOINT: usage is 'assetfs [OPTIONS] SOURCE MOUNTPOINT', e.g. 'assetfs ~/Pictures /mnt/assets' (see 'assetfs --help')")
            case "--help", "-h":
                print(Help.text)
                return 0
            case let command? where Help.subcommands.contains(command) && arguments.dropFirst().contains(where: { $0 == "--help" || $0 == "-h" }):
                print(Help.usage(of: command))
                return 0
            case "render":
                return try RenderCommand(arguments: Array(arguments.dropFirst())).run()
            case "warm":
                return try WarmCommand(arguments: Array(arguments.dropFirst())).run()
            case "thumbnails":
                return try ThumbnailsCommand(arguments: Array(arguments.dropFirst())).run()
            case "stats":
                return try StatsCommand.run(Array(arguments.dropFirst()))
            case "cache":
                return try CacheCommand(arguments: Array(arguments.dropFirst())).run()
            case "skipped":
                return try SkippedCommand(arguments: Array(arguments.dropFirst())).run()
            case "broken":
                return try BrokenCommand(arguments: Array(arguments.dropFirst())).run()
            case "locate":
                return try LocateCommand(arguments: Array(arguments.dropFirst())).run()
            case "manual":
                guard arguments.count == 1 else { throw UsageError(ManualPage.usage) }
                print(ManualPage.text(), terminator: "")
                return 0
            case "formats":
                guard arguments.count == 1 else { throw UsageError(FormatsCommand.usage) }
                print(FormatsCommand.text)
                return 0
            default:
                return try MountCommand(arguments: arguments).run()
            }
        } catch {
            Log.error(error.message)
            return 2
        }
    }
}
