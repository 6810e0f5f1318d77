import AssetFS
import Catalog
import MountModel
import Glibc
import Posix
import RenditionCache
import Renditions

/// assetfs's own `-o` options, shared by mounting, `warm` and `cache` so that they agree on
/// which cache file and which rendition specs a source uses.
struct Configuration {
    var mount = MountOptions()
    var cacheFile: FilePath?
    var cacheSize = MountOptionSchema.defaultCacheBytes
    /// How often SOURCE is checked where inotify cannot watch it (seconds).
    var recheckSeconds = MountOptionSchema.defaultRecheckSeconds
    /// `-o log=FILE`: where a mount in the background logs.
    var logFile: FilePath?
    /// `-o decode_memory=SIZE`: what the renders running together may hold in whole-image buffers.
    var decodeMemory = Self.defaultDecodeMemory(physicalMemory: ProcessEnvironment.physicalMemory)

    /// The keys the parser takes (`MountOptionSchema`, where each is defined with its help).
    static let keys = MountOptionSchema.keys

    init(options: [(key: String, value: String)]) throws(UsageError) {
        for (key, value) in options {
            switch key {
            case "cache":
                guard !value.isEmpty else { throw UsageError("-o cache needs a file, e.g. -o cache=~/.cache/assetfs/pictures.sqlite") }
                cacheFile = Self.absolute(value)
            case "cache_size": cacheSize = try Self.size(value, key)
            case "decode_memory":
                let bytes = try Self.size(value, key)
                guard bytes >= Self.minimumDecodeMemory else {
                    throw UsageError("-o decode_memory=\(value): at least \(Self.minimumDecodeMemory >> 20)M (a 12-megapixel progressive JPEG needs about 36M)")
                }
                decodeMemory = Int(clamping: bytes)
            case "thumbnail_size": mount.sizes.resize(0, to: try Self.number(value, key, 16...8192))
            case "fullscreen_size": mount.sizes.resize(1, to: try Self.number(value, key, RenditionSizes.longestSides))
            case "sizes":
                do throws(RenditionSizes.SizeError) { try mount.sizes.add(parsing: value) } catch {
                    throw UsageError("-o sizes=\(value): \(error)")
                }
            case "quality": mount.quality = try Self.number(value, key, 1...100)
            case "follow_symlinks": mount.followSymlinks = true
            case "show_housekeeping": mount.showsHousekeeping = true
            case "recheck": recheckSeconds = try Self.number(value, key, 1...86400)
            case "broken":
                guard let choice = MountOptions.BrokenPhotos(rawValue: value) else {
                    throw UsageError("-o broken=\(value): expected 'placeholder' (a neutral picture; the default) or 'error' (EIO)")
                }
                mount.brokenPhotos = choice
            case "log":
                guard !value.isEmpty else { throw UsageError("-o log needs a file, e.g. -o log=/var/log/assetfs.log") }
                logFile = Self.absolute(value)
            default: break
            }
        }
    }

    /// The cache file for `realSource`: `-o cache=` or the per-source default.
    func cachePath(for realSource: FilePath) -> FilePath { cacheFile ?? CacheLocation.defaultPath(forSource: realSource) }

    func openStore(for realSource: FilePath) throws(DatabaseError) -> RenditionStore {
        try RenditionStore(path: cachePath(for: realSource), capacity: cacheSize)
    }

    /// The catalog (the stored tree) lives beside the cache: `X.sqlite` → `X.catalog.sqlite`.
    func catalogPath(for realSource: FilePath) -> FilePath {
        var bytes = cachePath(for: realSource).bytes
        if bytes.count > 7, bytes.suffix(7).elementsEqual(".sqlite".utf8) { bytes.removeLast(7) }
        return FilePath(bytes: bytes + Array(".catalog.sqlite".utf8))
    }

    /// The lock the mount of a catalog holds (`CatalogLock`): `X.catalog.sqlite` → `X.catalog.lock`.
    func catalogLockPath(for realSource: FilePath) -> FilePath {
        FilePath(bytes: catalogPath(for: realSource).bytes.dropLast(".sqlite".utf8.count) + Array(".lock".utf8))
    }

    /// The cache, opened on first use; while it cannot be opened, renditions stay in memory.
    func cacheConnection(for realSource: FilePath) -> CacheConnection {
        CacheConnection(name: cachePath(for: realSource).description) { [self] () throws(DatabaseError) in try openStore(for: realSource) }
    }

    /// Opens the catalog; when its file cannot be used, a private one in the temporary folder
    /// (the tree is then scanned at every mount).
    func catalogOpener(for realSource: FilePath) -> @Sendable () -> CatalogStore {
        { [self] in
            do { return try CatalogStore(path: catalogPath(for: realSource), source: realSource, reservedAssetNames: MountLayout.reservedAssetNames) } catch {
                let fallback = FilePath("/tmp/assetfs-catalog-\(getpid()).sqlite")
                Log.warning("\(catalogPath(for: realSource)): cannot open the catalog (\(error)); using \(fallback) for this mount")
                _ = fallback.withCString { unlink($0) }
                do { return try CatalogStore(path: fallback, source: realSource, reservedAssetNames: MountLayout.reservedAssetNames) } catch {
                    fatalError("cannot open a catalog even in /tmp: \(error)")
                }
            }
        }
    }

    static func number(_ text: String, _ key: String, _ range: ClosedRange<Int>) throws(UsageError) -> Int {
        guard let value = Int(text), range.contains(value) else {
            throw UsageError("-o \(key)=\(text): expected a number from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    /// 512 MiB, or a quarter of the RAM of a smaller machine (a Raspberry Pi, a NAS): a few large
    /// HEIC or progressive decodes at once must not push it into swap or the OOM killer.
    static func defaultDecodeMemory(physicalMemory: Int) -> Int {
        physicalMemory > 0 ? max(minimumDecodeMemory, min(512 << 20, physicalMemory / 4)) : 512 << 20
    }

    static let minimumDecodeMemory = 16 << 20

    /// A renderer for a mount or `warm`: renders wait for memory within the decode budget.
    var renderer: Renderer { Renderer(limits: RenderLimits(waitForMemory: true), budget: MemoryBudget(bytes: decodeMemory)) }

    /// `512M`, `2G`, `100000`, `1.5G`.
    static func size(_ text: String, _ key: String) throws(UsageError) -> Int64 {
        let units: [Character: Double] = ["K": 1024, "M": 1_048_576, "G": 1_073_741_824, "T": 1_099_511_627_776]
        var digits = Substring(text.uppercased())
        var unit = 1.0
        if digits.last == "B" { digits = digits.dropLast() }
        if let last = digits.last, let multiplier = units[last] { unit = multiplier; digits = digits.dropLast() }
        guard let value = Double(digits), value > 0 else {
            throw UsageError("-o \(key)=\(text): expected a size such as 512M or 2G")
        }
        return Int64(value * unit)
    }

    static func absolute(_ path: String) -> FilePath {
        if path.hasPrefix("/") { return FilePath(path) }
        if path.hasPrefix("~/"), let home = ProcessEnvironment.home { return FilePath(home).appending(Array(path.dropFirst(2).utf8)) }
        return FilePath(ProcessEnvironment.currentDirectory).appending(Array(path.utf8))
    }
}
