import Posix

/// Arguments of `warm` and `cache`: `-o` lists of assetfs's own options, `--flags`, `--name
/// VALUE` (or `--name=VALUE`) for the names in `valued`, positionals.
struct SubcommandArguments {
    var options: [(key: String, value: String)] = []
    var flags: Set<String> = []
    var values: [String: String] = [:]
    var positional: [String] = []

    init(_ arguments: [String], allowedFlags: Set<String>, valued: Set<String> = [], command: String) throws(UsageError) {
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            if let name = valued.first(where: { argument == $0 || argument.hasPrefix($0 + "=") }) {
                guard let value = argument == name ? rest.popFirst() : String(argument.dropFirst(name.count + 1)) else {
                    throw UsageError("\(command): \(name) needs a value")
                }
                values[name] = value
                continue
            }
            if argument == "-o" || (argument.hasPrefix("-o") && argument.count > 2) {
                guard let list = argument == "-o" ? rest.popFirst() : String(argument.dropFirst(2)) else {
                    throw UsageError("\(command): -o needs options, e.g. -o cache=FILE,thumbnail_size=256")
                }
                for option in list.split(separator: ",") {
                    let key = String(option.prefix { $0 != "=" })
                    guard MountOption.keys().contains(key) else {
                        throw UsageError("\(command): unknown option '\(key)'; see 'assetfs --help' for the options")
                    }
                    options.append((key, option.contains("=") ? String(option.drop { $0 != "=" }.dropFirst()) : ""))
                }
            } else if argument == "-0", allowedFlags.contains("--null") {
                flags.insert("--null")
            } else if argument.hasPrefix("--") {
                guard allowedFlags.contains(argument) else { throw UsageError("\(command): unknown option '\(argument)'; see 'assetfs --help'") }
                flags.insert(argument)
            } else {
                positional.append(argument)
            }
        }
    }
}

/// What the listing commands (`skipped`, `broken`) take: `[-0] [-o OPTIONS] SOURCE`, and where
/// `acceptsMountpoint`, a MOUNTPOINT standing for the SOURCE it shows (its mount table entry).
struct ListingArguments {
    let configuration: Configuration
    let source: FilePath
    let nulTerminated: Bool

    init(_ arguments: [String], command: String, usage: String, acceptsMountpoint: Bool) throws(UsageError) {
        let parsed = try SubcommandArguments(arguments, allowedFlags: ["--null"], command: command)
        guard parsed.positional.count == 1 else { throw UsageError(usage) }
        configuration = try Configuration(options: parsed.options)
        let argument = parsed.positional[0]
        if acceptsMountpoint, let mount = try? FilePath(argument).resolved(), let entry = MountTable.entry(at: mount.bytes),
           entry.type == Array("fuse.assetfs".utf8) {
            source = try MountCommand.checkedSource(FilePath(bytes: entry.source).description)
        } else {
            source = try MountCommand.checkedSource(argument)
        }
        nulTerminated = parsed.flags.contains("--null")
    }

    /// SOURCE's real path, once a mount (or `warm`) has scanned it into a catalog.
    func scannedSource() throws(UsageError) -> FilePath {
        let realSource = MountCommand.realPath(source)
        guard (try? FileStatus(path: configuration.catalogPath(for: realSource))) != nil else {
            throw UsageError("SOURCE '\(source)' has not been mounted (or warmed) yet: nothing was scanned")
        }
        return realSource
    }
}
