import AssetFS
import Glibc
import Posix
import RenditionCache
import SQLiteDatabase

/// `assetfs cache stats|prune|clear|check [-o OPTS] SOURCE`: the cache a mount of SOURCE uses.
struct CacheCommand {
    let action: String
    let configuration: Configuration
    let source: FilePath

    init(arguments: [String]) throws(UsageError) {
        let parsed = try SubcommandArguments(arguments, allowedFlags: [], command: "cache")
        guard parsed.positional.count == 2, ["stats", "prune", "clear", "check"].contains(parsed.positional[0]) else {
            throw UsageError("usage: assetfs cache stats|prune|clear|check [-o OPTIONS] SOURCE")
        }
        action = parsed.positional[0]
        configuration = try Configuration(options: parsed.options)
        source = try MountCommand.checkedSource(parsed.positional[1])
    }

    func run() throws(UsageError) -> Int32 {
        let realSource = (try? source.resolved()) ?? source
        let path = configuration.cachePath(for: realSource)
        // Opening would create an empty cache and report on it: say there is none instead. Clearing
        // or pruning what is not there has nothing to do, and is no error.
        guard (try? FileStatus(path: path)) != nil else {
            let sudo = getenv("SUDO_USER") != nil ? " (under sudo the default cache is root's: run it as the user who mounts, or name the file with -o cache=FILE)" : ""
            let none = "no cache for SOURCE '\(source)' at \(path): it has not been mounted or warmed with these options\(sudo)"
            guard action == "clear" || action == "prune" else { throw UsageError(none) }
            print("\(none); nothing to \(action)")
            return 0
        }
        do {
            let store = try configuration.openStore(for: realSource)
            switch action {
            case "prune":
                // Renditions of photos gone or changed, or of an earlier assetfs, can never be
                // asked for again: forget them (sizes and failures too), then evict to the cap.
                if (try? FileStatus(path: configuration.catalogPath(for: realSource))) != nil {
                    let catalog = configuration.catalogOpener(for: realSource)()
                    let forgotten = try catalog.read { (catalog) throws(DatabaseError) in try store.forget { !RenditionRequest.isCurrent($0, in: catalog) } }
                    print("forgotten   \(forgotten) renditions of photos no longer in SOURCE (or of an earlier assetfs)")
                }
                try store.prune()
            case "clear": try store.clear()
            case "check":
                let problems = try store.integrityCheck()
                print("integrity   \(problems == ["ok"] ? "ok" : problems.joined(separator: "\n            "))")
                if problems != ["ok"] { return 1 }
            default: break
            }
            let stats = try store.statistics()
            print("cache       \(path)")
            print("size        \(stats.bytes) bytes (\(Self.readable(stats.bytes)) of \(Self.readable(store.capacity)))")
            print("renditions  \(stats.entries) stored, \(stats.outcomes) sizes or failures known")
            if let oldest = stats.oldestUse {
                print("oldest use  \(Int(time(nil)) - Int(oldest)) s ago")
            }
        } catch {
            throw UsageError("\(path): \(error)")
        }
        return 0
    }

    /// A byte count in the largest binary unit it fills, one decimal below 10 (`3.2 MiB`, `100 KiB`),
    /// so a small cache or cap does not read as 0 MiB.
    static func readable(_ bytes: Int64) -> String {
        var value = Double(bytes), unit = 0
        let units = ["bytes", "KiB", "MiB", "GiB", "TiB"]
        while value >= 1024, unit < units.count - 1 { value /= 1024; unit += 1 }
        let digits = unit > 0 && value < 10 ? (value * 10).rounded() / 10 : value.rounded()
        let text = digits == digits.rounded() ? String(Int(digits)) : String(digits)
        return "\(text) \(units[unit])"
    }
}
