import Glibc
import Posix

/// Where a source's cache lives by default: `$XDG_CACHE_HOME/assetfs/` (else `~/.cache/assetfs/`),
/// one file per source, named from the source's real path so two sources never share a file.
public enum CacheLocation {
    public static func defaultPath(forSource realSource: FilePath) -> FilePath {
        let base: FilePath
        if let xdg = getenv("XDG_CACHE_HOME"), xdg.pointee != 0 {
            base = FilePath(String(cString: xdg))
        } else if let home = getenv("HOME"), home.pointee != 0 {
            base = FilePath(String(cString: home)).appending(Array(".cache".utf8))
        } else {
            base = FilePath("/var/cache")
        }
        let readable = realSource.components.last.map { String(decoding: $0, as: UTF8.self) } ?? "root"
        let safe = String(readable.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "_" }.prefix(40))
        let hex = String(FNV1a.hash(realSource.bytes), radix: 16)
        return base.appending(Array("assetfs".utf8)).appending(Array("\(safe)-\(hex).sqlite".utf8))
    }
}
