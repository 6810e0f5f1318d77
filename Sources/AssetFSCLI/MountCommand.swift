import AssetFS
import FUSEAdapter
import Glibc
import PhotoSource
import Posix
import RenditionCache
import Renditions

/// `assetfs [OPTIONS] SOURCE MOUNTPOINT`: checks what libfuse would report without a fix,
/// then mounts and (unless -f/-d) goes to the background once the mount is ready.
struct MountCommand {
    let arguments: FUSEArguments
    let configuration: Configuration
    /// Where the daemon logs once in the background (stderr when it stays in the foreground).
    let backgroundLog: Log.Destination

    init(arguments: [String]) throws(UsageError) {
        do { self.arguments = try FUSEArguments(arguments, ownKeys: Configuration.keys) } catch { throw UsageError(error.message) }
        configuration = try Configuration(options: self.arguments.ownOptions)
        let staysInFront = self.arguments.foreground || self.arguments.debug || self.arguments.showHelp || self.arguments.showVersion
        backgroundLog = staysInFront ? .standardError : try LogLocation.choose(
            explicit: configuration.logFile, environment: ProcessEnvironment.variables(["XDG_STATE_HOME", "HOME"])).destination()
    }

    func run() throws(UsageError) -> Int32 {
        if arguments.showHelp { print(Help.text); return 0 }
        if arguments.showVersion { print(AssetFSCommand.version); return 0 }
        let source = try Self.checkedSource(arguments.source)
        guard let mountpoint = arguments.mountpoint else {
            throw UsageError("missing MOUNTPOINT: usage is 'assetfs [OPTIONS] SOURCE MOUNTPOINT', e.g. 'assetfs ~/Pictures /mnt/assets'")
        }
        try Self.checkMountpoint(mountpoint)
        Log.configure(destination: .standardError, debug: arguments.debug)
        let fsname = realSourceName(source)
        let libfuseArguments = ["assetfs", "-o", "fsname=\(fsname),subtype=assetfs"] + arguments.libfuseArguments.dropFirst()
            + ["-o", "ro,nodev,nosuid,default_permissions"]
        do { try FUSEMount.validate(libfuseArguments: libfuseArguments) } catch { throw UsageError(error.message) }

        let realSource = (try? source.resolved()) ?? source
        try Self.checkSeparate(source: realSource, mountpoint: mountpoint, cache: configuration.cachePath(for: realSource))
        let store: RenditionStore?
        do { store = try configuration.openStore(for: realSource) } catch {
            Log.warning("\(configuration.cachePath(for: realSource)): cannot open the cache (\(error)); renditions will be made in memory only")
            store = nil
        }
        let renderer = Renderer(limits: RenderLimits(waitForMemory: true))
        let fileSystem: AssetFileSystem
        do {
            fileSystem = try AssetFileSystem(source: realSource, options: configuration.mount, store: store, renderer: renderer,
                                             renderThreads: ProcessEnvironment.processorCount)
        } catch { throw UsageError("SOURCE '\(source)': cannot scan: \(error)") }

        let mount: FUSEMount
        do { mount = try FUSEMount(fileSystem: fileSystem, mountpoint: mountpoint, libfuseArguments: libfuseArguments) } catch {
            throw UsageError(error.message)
        }
        let foreground = arguments.foreground || arguments.debug
        let catalog = fileSystem.currentCatalog
        let status = mount.run(foreground: foreground, singleThreaded: arguments.singleThreaded) {
            if !foreground { Log.configure(destination: backgroundLog, debug: false) }
            Log.info("mounted \(realSource) on \(mountpoint): \(catalog.albums.count) albums, \(catalog.library.photoCount) photos, \(catalog.library.skipped) files skipped")
            Self.watch(fileSystem, mount)
        }
        fileSystem.pipeline.flushUses()
        store?.checkpoint()
        Log.info("unmounted \(mountpoint)")
        return status
    }

    /// The source's real path as libfuse's option parser needs it: a backslash escapes, so a comma
    /// in the path must not split the option list.
    private func realSourceName(_ source: FilePath) -> String {
        ((try? source.resolved()) ?? source).description.flatMap { $0 == "," || $0 == "\\" ? ["\\", $0] : [$0] }.map(String.init).joined()
    }

    /// Keeps the mount in step with the source: rescan on change, tell the kernel what went stale.
    private static func watch(_ fileSystem: AssetFileSystem, _ mount: FUSEMount) {
        let holder = WatcherHolder()
        let watcher = SourceWatcher(root: fileSystem.root) {
            repeat {
                mount.invalidate(fileSystem.rescan())
            } while holder.watcher?.watch(fileSystem.currentCatalog.library.folders) == true
        }
        holder.watcher = watcher
        watcher.watch(fileSystem.currentCatalog.library.folders)
        watcher.start()
    }

    static func checkedSource(_ source: String?) throws(UsageError) -> FilePath {
        guard let source else {
            throw UsageError("missing SOURCE: usage is 'assetfs [OPTIONS] SOURCE MOUNTPOINT', e.g. 'assetfs ~/Pictures /mnt/assets'")
        }
        let path = FilePath(source)
        let status: FileStatus
        do { status = try FileStatus(path: path) } catch {
            throw UsageError("SOURCE '\(source)': \(error); give the folder that holds your photos")
        }
        guard status.isDirectory else { throw UsageError("SOURCE '\(source)' is not a folder; give the folder that holds your photos") }
        return path
    }

    /// The daemon reads SOURCE and the cache; were either under its own mount, it would wait on itself.
    static func checkSeparate(source: FilePath, mountpoint: String, cache: FilePath) throws(UsageError) {
        guard let realMountpoint = try? FilePath(mountpoint).resolved() else { return }
        func isInside(_ path: FilePath, _ folder: FilePath) -> Bool {
            path == folder || path.bytes.starts(with: folder.bytes + [UInt8(ascii: "/")])
        }
        if isInside(realMountpoint, source) || isInside(source, realMountpoint) {
            throw UsageError("MOUNTPOINT '\(mountpoint)' is SOURCE or inside it (or holds it); mount somewhere else, e.g. /mnt/assets")
        }
        if isInside(cache, realMountpoint) {
            throw UsageError("the cache \(cache) is inside MOUNTPOINT '\(mountpoint)'; choose another -o cache=FILE")
        }
    }

    static func checkMountpoint(_ mountpoint: String) throws(UsageError) {
        do {
            let status = try FileStatus(path: FilePath(mountpoint))
            guard status.isDirectory else { throw UsageError("MOUNTPOINT '\(mountpoint)' is not a folder; create an empty one with 'mkdir -p \(mountpoint)'") }
            try checkNotMounted(mountpoint)
        } catch let error as Errno where error == .notConnected {
            throw UsageError("MOUNTPOINT '\(mountpoint)' is a dead mount (Transport endpoint is not connected; its daemon died): clear it with 'fusermount3 -u \(mountpoint)'")
        } catch let error as Errno where error == .notFound {
            throw UsageError("MOUNTPOINT '\(mountpoint)' does not exist; create it with 'mkdir -p \(mountpoint)'")
        } catch let error as UsageError {
            throw error
        } catch {
            throw UsageError("MOUNTPOINT '\(mountpoint)': \(error)")
        }
    }
}

extension MountCommand {
    /// A second mount on a live one would hide it (and stack up on every retry): refuse instead.
    /// Checked on the real path, as /proc/self/mountinfo names mount points.
    static func checkNotMounted(_ mountpoint: String) throws(UsageError) {
        guard let real = try? FilePath(mountpoint).resolved(), let mounted = try? MountTable.mountPoints(),
              mounted.contains(real) else { return }
        throw UsageError("MOUNTPOINT '\(mountpoint)' already has a filesystem mounted on it; unmount it first ('umount \(real)') or choose another folder")
    }
}

private final class WatcherHolder: @unchecked Sendable {
    var watcher: SourceWatcher?
}
