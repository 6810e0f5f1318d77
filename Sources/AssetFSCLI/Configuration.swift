import AssetFS
import Catalog
import MountModel
import Glibc
import Posix
import RenditionCache
import Renditions

/// assetfs's own `-o` options, shared by mounting, `warm` and `cache` so that they agree on
/// which cache file and which rendition specs a source uses. The values here are the defaults;
/// `MountOption.all` declares how each option sets them.
struct Configuration: Equatable {
    var mount = MountOptions()
    var cacheFile: FilePath?
    var cacheSize: Int64 = 1 << 30
    /// How often SOURCE is checked where inotify cannot watch it (seconds).
    var recheckSeconds = 600
    /// `-o log=FILE`: where a mount in the background logs.
    var logFile: FilePath?
    /// `-o decode_memory=SIZE`: what the renders running together may hold in whole-image buffers.
    var decodeMemory = Self.defaultDecodeMemory(physicalMemory: ProcessEnvironment.physicalMemory)

    init() {}

    /// The options given, applied in order as `declarations` say (a key given twice: the last wins).
    init(options: [(key: String, value: String)], declarations: [MountOption] = MountOption.all) throws(UsageError) {
        for (key, value) in options where !MountOption.mountHelperKeys.contains(key) {
            guard let option = declarations.first(where: { $0.name == key }) else {
                throw UsageError("unknown option '\(key)'; see 'assetfs --help' for the options")
            }
            try option.apply(&self, value)
        }
    }

    // The settings options reach through a key path.
    var thumbnailSide: Int {
        get { mount.sizes.thumbnail.longestSide }
        set { mount.sizes.resize(mount.sizes.thumbnail.slot, to: newValue) }
    }
    var fullscreenSide: Int {
        get { mount.sizes.fullscreen.longestSide }
        set { mount.sizes.resize(mount.sizes.fullscreen.slot, to: newValue) }
    }
    var decodeMemoryBytes: Int64 {
        get { Int64(decodeMemory) }
        set { decodeMemory = Int(clamping: newValue) }
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

    /// 512 MiB, or a quarter of the RAM of a smaller machine (a Raspberry Pi, a NAS): a few large
    /// HEIC or progressive decodes at once must not push it into swap or the OOM killer.
    static func defaultDecodeMemory(physicalMemory: Int) -> Int {
        let cap = Int(decodeMemoryCap)
        return physicalMemory > 0 ? max(Int(minimumDecodeMemory), min(cap, physicalMemory / 4)) : cap
    }

    static let decodeMemoryCap: Int64 = 512 << 20
    static let minimumDecodeMemory: Int64 = 16 << 20

    /// A renderer for a mount or `warm`: renders wait for memory within the decode budget.
    var renderer: Renderer { Renderer(limits: RenderLimits(waitForMemory: true), budget: MemoryBudget(bytes: decodeMemory)) }

    static func absolute(_ path: String) -> FilePath {
        if path.hasPrefix("/") { return FilePath(path) }
        if path.hasPrefix("~/"), let home = ProcessEnvironment.home { return FilePath(home).appending(Array(path.dropFirst(2).utf8)) }
        return FilePath(ProcessEnvironment.currentDirectory).appending(Array(path.utf8))
    }
}
