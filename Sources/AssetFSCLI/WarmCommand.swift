import AssetFS
import Catalog
import MountModel
import Dispatch
import Glibc
import PhotoSource
import Posix
import RenditionCache
import Renditions
import Synchronization

/// `assetfs warm [--sizes LIST] [-o OPTS] SOURCE`: brings the catalog up to date with SOURCE
/// (unless a mount keeps it), with what a mount reads in the background, then renders every
/// asset at the sizes named (the thumbnail unless told) into the cache a mount of SOURCE with the
/// same options uses, on all cores, with progress.
struct WarmCommand {
    static let usage = "usage: assetfs warm [--sizes thumbnail,fullscreen,...|all] [--fullscreen] [-o OPTIONS] SOURCE"
    let configuration: Configuration
    let source: FilePath
    let sizes: [RenditionSize]

    init(arguments: [String]) throws(UsageError) {
        let parsed = try SubcommandArguments(arguments, allowedFlags: ["--fullscreen"], valued: ["--sizes"], command: "warm")
        guard parsed.positional.count == 1 else { throw UsageError(Self.usage) }
        configuration = try Configuration(options: parsed.options)
        source = try MountCommand.checkedSource(parsed.positional[0])
        let all = configuration.mount.sizes
        // --fullscreen: what it always meant, the thumbnail and the fullscreen.
        let names = parsed.values["--sizes"].map { $0.split(separator: ",").map(String.init) }
            ?? (parsed.flags.contains("--fullscreen") ? ["thumbnail", "fullscreen"] : ["thumbnail"])
        var sizes: [RenditionSize] = []
        for name in names {
            if name == "all" { sizes = all.all; break }
            guard let size = all.first(where: { $0.name == name }) else {
                throw UsageError("warm: --sizes: no size '\(name)' (this mount's: \(all.map(\.name).joined(separator: ", ")), or all; add one with -o sizes=NAME:PX)")
            }
            if !sizes.contains(size) { sizes.append(size) }
        }
        guard !sizes.isEmpty else { throw UsageError(Self.usage) }
        self.sizes = sizes
    }

    func run() throws(UsageError) -> Int32 {
        let realSource = MountCommand.realPath(source)
        let store: RenditionStore
        do { store = try configuration.openStore(for: realSource) } catch {
            throw UsageError("\(configuration.cachePath(for: realSource)): cannot open the cache: \(error)")
        }
        let fileSystem = AssetFileSystem(source: realSource, options: configuration.mount, cache: CacheConnection { store },
                                         catalog: configuration.catalogOpener(for: realSource),
                                         renderer: configuration.renderer,
                                         renderThreads: ProcessEnvironment.processorCount)
        // The same catalog a mount uses. While a mount holds it (`CatalogLock`) it is only read
        // here: the mount keeps it in step with SOURCE and tells its own kernel what changed, which
        // this process could not. Otherwise it is brought up to date first, by the check a remount
        // makes (every folder read again, photos unchanged not opened), so new photos are warmed too.
        if let mountpoint = CatalogLock.servingMount(configuration.catalogLockPath(for: realSource)) {
            guard fileSystem.catalog.read({ $0.isComplete }) else {
                throw UsageError("SOURCE '\(source)' is mounted on \(mountpoint) with this cache, and that mount has not yet written "
                                 + "a whole scan of it to the catalog it keeps: run warm once it has (assetfs stats \(mountpoint) says "
                                 + "catalog complete 1), or give warm a cache and catalog of its own with -o cache=FILE")
            }
        } else {
            let progress = ScanProgress(enabled: isatty(2) != 0)
            defer { progress.finish() }
            guard fileSystem.synchronize(.everything, progress: progress.update) else { throw UsageError("SOURCE '\(source)': cannot be read") }
            // What a mount reads in the background (properties, content ids, rendition digests):
            // an edit and its original pair only once both are read, and copies are rendered
            // once, under the keys the mount will ask for.
            fileSystem.readPendingProperties()
        }
        let specs = sizes.map(configuration.mount.spec)
        let photos = fileSystem.catalog.read { $0.allRenditionSources() }
        let requests = photos.flatMap { photo in specs.map { RenditionRequest(photo, spec: $0) } }
        let progress = Progress(total: requests.count)
        let tally = Mutex<(rendered: Int, cached: Int, failed: [String])>((0, 0, []))
        let group = DispatchGroup()
        for request in requests {
            group.enter()
            fileSystem.pipeline.ensureStored(request) { result in
                tally.withLock { tally in
                    switch result {
                    case .rendered: tally.rendered += 1
                    case .alreadyCached: tally.cached += 1
                    case .failed(let reason): tally.failed.append(reason)
                    }
                }
                progress.advance()
                group.leave()
            }
        }
        group.wait()
        fileSystem.shutdown()  // the writer stores what is still queued
        progress.finish()
        let (rendered, cached, failed) = tally.withLock { $0 }
        print("rendered \(rendered), already cached \(cached), failed \(failed.count) (\(counted(requests.count, "rendition")) of \(counted(photos.count, "photo")))")
        for reason in failed.sorted() { print("  failed: \(reason)") }
        return failed.isEmpty ? 0 : 1
    }
}

/// A progress line: a bar on a terminal, plain lines every few seconds otherwise.
final class Progress: Sendable {
    private let total: Int
    private let start = Progress.now()
    private let state = Mutex<(done: Int, lastPrint: Double)>((0, 0))
    private let terminal = isatty(2) != 0

    init(total: Int) { self.total = total }

    func advance() {
        let line: String? = state.withLock { state in
            state.done += 1
            let now = Progress.now()
            guard now - state.lastPrint >= (terminal ? 0.1 : 5) || state.done == total else { return nil }
            state.lastPrint = now
            return render(done: state.done, elapsed: now - start)
        }
        if let line { try? FileDescriptor.standardError.writeAll(Array((terminal ? "\r\(line)" : "\(line)\n").utf8)) }
    }

    func finish() { if terminal { try? FileDescriptor.standardError.writeAll(Array("\n".utf8)) } }

    private func render(done: Int, elapsed: Double) -> String {
        let rate = elapsed > 0 ? Double(done) / elapsed : 0
        let eta = rate > 0 ? Int(Double(total - done) / rate) : 0
        let width = 30
        let filled = total > 0 ? width * done / total : width
        let bar = terminal ? "[" + String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled) + "] " : ""
        return "\(bar)\(done)/\(total)  \(Int(rate * 10) / 10).\(Int(rate * 10) % 10)/s  ETA \(eta / 60):\(eta % 60 < 10 ? "0" : "")\(eta % 60)"
    }

    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
