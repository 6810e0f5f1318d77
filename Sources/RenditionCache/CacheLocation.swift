import Glibc
import Posix

/// Where a source's cache lives by default: `$XDG_CACHE_HOME/assetfs/` (else `~/.cache/assetfs/`),
/// one file per source, named from the source's real path so two sources never share a file.
public enum CacheLocation {
    /// `environment` looks up a variable; the process environment unless a caller (a test) passes
    /// its own, which spares it setenv while other threads read the environment.
    public static func defaultPath(forSource realSource: FilePath,
                                   environment: (String) -> String? = processEnvironment) -> FilePath {
        let base: FilePath
        if let xdg = environment("XDG_CACHE_HOME"), !xdg.isEmpty {
            base = FilePath(xdg)
        } else if let home = environment("HOME"), !home.isEmpty {
            base = FilePath(home).appending(Array(".cache".utf8))
        } else {
            base = FilePath("/var/cache")
        }
        let readable = realSource.components.last.map { String(decoding: $0, as: UTF8.self) } ?? "root"
        let safe = String(readable.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "_" }.prefix(40))
        let hex = String(FNV1a.hash(realSource.bytes), radix: 16)
        return base.appending(Array("assetfs".utf8)).appending(Array("\(safe)-\(hex).sqlite".utf8))
    }

    /// The variable from the process environment (getenv).
    public static func processEnvironment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
