import AssetFS
import Dispatch
import FUSEAdapter
import Glibc
import PhotoSource
import Posix
import RenditionCache
import Renditions
import Synchronization

/// `assetfs [OPTIONS] SOURCE MOUNTPOINT`: checks what libfuse would report without a fix,
/// then mounts and (unless -f/-d) goes to the background once the mount is ready.
struct MountCommand {
    let arguments: FUSEArguments
    let configuration: Configuration
    /// Where the daemon logs once in the background (stderr when it stays in the foreground).
    let backgroundLog: Log.Destination

    init(arguments: [String]) throws(UsageError) {
        do { self.arguments = try FUSEArguments(arguments, ownKeys: MountOption.keys()) } catch { throw UsageError(error.message) }
        configuration = try Configuration(options: self.arguments.ownOptions)
        let staysInFront = self.arguments.foreground || self.arguments.debug || self.arguments.showHelp || self.arguments.showVersion
        backgroundLog = staysInFront ? .standardError : try LogLocation.choose(
            explicit: configuration.logFile, environment: ProcessEnvironment.variables(["XDG_STATE_HOME", "HOME"])).destination()
    }

    /// What libfuse is given: the user's options, the source's name, and read-only. Alone, the
    /// kernel checks the mode bits shown (SOURCE's) itself; with other users let in the daemon
    /// decides for each request instead, by SOURCE's own rules (folders above it and ACLs
    /// included), which no mode bits shown could express.
    private func libfuseArguments(fsname: String) throws(UsageError) -> [String] {
        let othersMayEnter = FUSEArguments.lets(otherUsersIn: arguments.libfuseArguments)
        let libfuseArguments = ["assetfs", "-o", "fsname=\(fsname),subtype=assetfs"] + arguments.libfuseArguments.dropFirst()
            + ["-o", "ro,nodev,nosuid" + (othersMayEnter ? "" : ",default_permissions")]
        do { try FUSEMount.validate(libfuseArguments: libfuseArguments) } catch { throw UsageError(error.message) }
        return libfuseArguments
    }

    func run() throws(UsageError) -> Int32 {
        if arguments.showHelp { print(Help.text); return 0 }
        if arguments.showVersion { print(AssetFSCommand.version); return 0 }
        guard let sourceArgument = arguments.source else { _ = try Self.checkedSource(nil); return 2 }
        guard let mountpoint = arguments.mountpoint else {
            throw UsageError("missing MOUNTPOINT: usage is 'assetfs [OPTIONS] SOURCE MOUNTPOINT', e.g. 'assetfs ~/Pictures /mnt/assets'")
        }
        let source = try Self.checkedSource(sourceArgument, offlineCatalog: configuration)
        try Self.checkMountpoint(mountpoint)
        Log.configure(destination: .standardError, debug: arguments.debug)
        let libfuseArguments = try libfuseArguments(fsname: realSourceName(source))

        let realSource = Self.realPath(source)
        let cachePath = configuration.cachePath(for: realSource)
        try Self.checkSeparate(source: realSource, mountpoint: mountpoint, cache: cachePath)
        // Held until the mount ends, in the process that serves it (the daemon, after the fork).
        let realMountpoint = Self.realPath(FilePath(mountpoint))
        let catalogLock = try CatalogLock.take(configuration.catalogLockPath(for: realSource), mountpoint: realMountpoint, cache: cachePath)
        // Both SQLite files are opened on first use, in the process that serves the mount: never
        // before fuse_daemonize forks.
        let fileSystem = AssetFileSystem(source: realSource, options: configuration.mount,
                                         cache: configuration.cacheConnection(for: realSource),
                                         catalog: configuration.catalogOpener(for: realSource),
                                         renderer: configuration.renderer,
                                         renderThreads: ProcessEnvironment.processorCount)
        let mount: FUSEMount
        do { mount = try FUSEMount(fileSystem: fileSystem, mountpoint: mountpoint, libfuseArguments: libfuseArguments) } catch {
            throw UsageError(error.message)
        }
        let foreground = arguments.foreground || arguments.debug
        let follower = SourceFollower(fileSystem, recheckSeconds: Double(configuration.recheckSeconds))
        let status = mount.run(foreground: foreground, singleThreaded: arguments.singleThreaded, prepare: {
            // The renderer's fingerprint (in every cache key: ten small renders) is made now,
            // beside the scan, not by the first request that needs a key, on a FUSE thread.
            DispatchQueue.global().async { _ = Renderer.fingerprint }
            // A first mount serves once its first scan is done (requests wait in the kernel
            // meanwhile, and the command returns only then, so no listing is ever partial).
            let progress = ScanProgress(enabled: foreground && isatty(2) != 0)
            follower.prepare(progress: progress.update)
            progress.finish()
        }, started: { [backgroundLog] in
            // Until it serves, what goes wrong (libfuse refusing the mount) reaches the terminal.
            if !foreground { Log.configure(destination: backgroundLog, debug: false) }
            catalogLock?.recordHolder(mountpoint: realMountpoint)
            Log.info("mounted \(realSource) on \(mountpoint)")
            fileSystem.logSummary("serving")
            follower.start()
        }, stopping: {
            follower.stop()
            fileSystem.shutdown()
        })
        Log.info("unmounted \(mountpoint)")
        return status
    }

    /// `realpath`, or for a SOURCE that is away, the absolute path as given.
    static func realPath(_ path: FilePath) -> FilePath {
        if let real = try? path.resolved() { return real }
        return Configuration.absolute(path.description)
    }

    /// The source's real path as libfuse's option parser needs it: a backslash escapes, so a comma
    /// in the path must not split the option list.
    private func realSourceName(_ source: FilePath) -> String {
        Self.realPath(source).description.flatMap { $0 == "," || $0 == "\\" ? ["\\", $0] : [$0] }.map(String.init).joined()
    }

    /// SOURCE as given, checked; with `offlineCatalog`, a SOURCE that is away (an unplugged disk,
    /// a NAS down) is accepted when a catalog of it exists: the stored tree is served.
    static func checkedSource(_ source: String?, offlineCatalog configuration: Configuration? = nil) throws(UsageError) -> FilePath {
        guard let source else {
            throw UsageError("missing SOURCE: usage is 'assetfs [OPTIONS] SOURCE MOUNTPOINT', e.g. 'assetfs ~/Pictures /mnt/assets'")
        }
        let path = FilePath(source)
        let status: FileStatus
        do { status = try FileStatus(path: path) } catch {
            if let configuration, (try? FileStatus(path: configuration.catalogPath(for: realPath(path)))) != nil {
                Log.warning("SOURCE '\(source)': \(error); mounting the stored tree: cached renditions are readable, the rest fails until SOURCE is back")
                return path
            }
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
            throw deadMount(mountpoint)
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
        if isDeadMount(real) { throw deadMount(mountpoint) }
        throw UsageError("MOUNTPOINT '\(mountpoint)' already has a filesystem mounted on it; unmount it first ('umount \(real)') or choose another folder")
    }

    /// Whether the FUSE mount on `path` lost its daemon (`kill -9`, a crash). `stat` cannot tell:
    /// the kernel answers it from attributes cached while the daemon lived. `statfs` always goes
    /// to the daemon, and fails with ENOTCONN once it is gone.
    static func isDeadMount(_ path: FilePath) -> Bool {
        do {
            try OwnedFileDescriptor.openPath(path).checkFileSystem()
            return false
        } catch {
            return error == .notConnected
        }
    }

    static func deadMount(_ mountpoint: String) -> UsageError {
        UsageError("MOUNTPOINT '\(mountpoint)' is a dead mount (Transport endpoint is not connected; its daemon died): clear it with 'fusermount3 -u \(mountpoint)'")
    }
}

/// "scanning: N folders" on the terminal while a first scan runs in the foreground.
final class ScanProgress: Sendable {
    private let enabled: Bool
    private let lastPrint = Mutex(0.0)

    init(enabled: Bool) { self.enabled = enabled }

    func update(_ folders: Int) {
        guard enabled else { return }
        let now = Progress.now()
        guard lastPrint.withLock({ last in
            guard now - last > 0.5 else { return false }
            last = now
            return true
        }) else { return }
        try? FileDescriptor.standardError.writeAll(Array("\rscanning SOURCE: \(folders) folders".utf8))
    }

    func finish() {
        if enabled && lastPrint.withLock({ $0 }) > 0 { try? FileDescriptor.standardError.writeAll(Array("\n".utf8)) }
    }
}
