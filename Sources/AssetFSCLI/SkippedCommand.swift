import Catalog
import Posix

/// `assetfs skipped [-o OPTS] SOURCE`: the files of SOURCE that are not shown, and why (as the
/// catalog a mount of SOURCE keeps has them), one per line: `reason<TAB>path`.
struct SkippedCommand {
    static let usage = "usage: assetfs skipped [-o OPTIONS] SOURCE"
    let configuration: Configuration
    let source: FilePath

    init(arguments: [String]) throws(UsageError) {
        let parsed = try SubcommandArguments(arguments, allowedFlags: [], command: "skipped")
        guard parsed.positional.count == 1 else { throw UsageError(Self.usage) }
        configuration = try Configuration(options: parsed.options)
        source = try MountCommand.checkedSource(parsed.positional[0])
    }

    func run() throws(UsageError) -> Int32 {
        let realSource = MountCommand.realPath(source)
        guard (try? FileStatus(path: configuration.catalogPath(for: realSource))) != nil else {
            throw UsageError("SOURCE '\(source)' has not been mounted (or warmed) yet: nothing was scanned")
        }
        let catalog = configuration.catalogOpener(for: realSource)()
        var output: [UInt8] = []
        catalog.forEachSkipped { path, reason in
            output += Array(reason.rawValue.utf8) + [0x09] + realSource.appending(path).bytes + [0x0A]
            if output.count > 1 << 16 {
                try? FileDescriptor.standardOutput.writeAll(output)
                output = []
            }
        }
        try? FileDescriptor.standardOutput.writeAll(output)
        return 0
    }
}
