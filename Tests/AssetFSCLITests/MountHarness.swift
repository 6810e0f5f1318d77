import Foundation
import Glibc
import Testing

/// Whether real mounts can be tried. Without /dev/fuse the mount tests are skipped with a reason,
/// unless ASSETFS_REQUIRE_FUSE=1: then they run and fail.
enum FUSE {
    static let deviceExists = access("/dev/fuse", F_OK) == 0
    static let required = ProcessInfo.processInfo.environment["ASSETFS_REQUIRE_FUSE"] == "1"
}

extension Trait where Self == ConditionTrait {
    static var needsFUSE: Self {
        .enabled(if: FUSE.deviceExists || FUSE.required,
                 "/dev/fuse is missing, so nothing can be mounted (set ASSETFS_REQUIRE_FUSE=1 to make this a failure)")
    }
}

/// All tests that mount for real, one at a time (each file adds a sub-suite in an extension):
/// they share 2 cores with renders, and counters such as `renders` are easiest to reason about alone.
@Suite(.serialized, .needsFUSE) struct Mounted {
    @Test func fuseDeviceIsThereWhenRequired() {
        #expect(FUSE.deviceExists, "ASSETFS_REQUIRE_FUSE=1 but /dev/fuse is missing")
    }
}

/// The `assetfs` executable `swift test` built next to the test bundle.
enum AssetFS {
    /// ASSETFS_BINARY=/path/to/assetfs tests another build (an installed one, say).
    static let binary: String = {
        if let chosen = ProcessInfo.processInfo.environment["ASSETFS_BINARY"], !chosen.isEmpty { return chosen }
        // Under swift test this process is .build/<triple>/debug/assetfsPackageTests.xctest.
        if let real = realpath("/proc/self/exe", nil) {
            defer { free(real) }
            let candidate = URL(fileURLWithPath: String(cString: real)).deletingLastPathComponent().appendingPathComponent("assetfs").path
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return TestData.packageRoot + "/.build/debug/assetfs"
    }()

    @discardableResult
    static func run(_ arguments: [String], timeout: Double = 120, environment: [String: String]? = nil, mayLeaveDaemon: Bool = false,
                    sourceLocation: SourceLocation = #_sourceLocation) -> CommandOutput {
        Command.run(binary, arguments, timeout: timeout, environment: environment, mayLeaveDaemon: mayLeaveDaemon, sourceLocation: sourceLocation)
    }
}

/// The mount's counters: the mount root's `user.assetfs.stats` attribute.
struct MountStats: Decodable, Equatable, CustomStringConvertible {
    var albums: Int
    var assets: Int
    var skipped: Int
    var renders: Int
    var renderFailures: Int
    var cacheHits: Int
    var cacheMisses: Int
    var cacheBytes: Int
    var foldersRead: Int
    var sourceOnline: Int
    /// Assets whose date came from EXIF, and from the file's mtime (nil before dates existed).
    var datesExif: Int?
    var datesMtime: Int?
    /// Catalog changes waiting to be written, and why the last write failed (nil before they existed).
    var catalogPending: Int?
    var catalogError: String?
    /// Assets shown broken now, and of the assets the videos, Live Photos and Motion Photos (nil before they existed).
    var broken: Int?
    var videos: Int?
    var livePhotos: Int?
    var motionPhotos: Int?

    var description: String {
        "albums \(albums) assets \(assets) skipped \(skipped) renders \(renders) failures \(renderFailures) hits \(cacheHits) misses \(cacheMisses) bytes \(cacheBytes)"
    }
}

struct HarnessError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Builds `library` as SOURCE in a fresh private folder (mkdtemp under /tmp), runs `body`, and
/// always unmounts whatever it mounted, checks that the source was left alone (unless the test
/// changes it on purpose) and removes the folder.
func withScratch(_ library: Library, changesSource: Bool = false, sourceLocation: SourceLocation = #_sourceLocation,
                 _ body: (Scratch) throws -> Void) throws {
    let scratch = try Scratch(library)
    defer { scratch.cleanUp(checkSource: !changesSource, sourceLocation: sourceLocation) }
    try body(scratch)
}

/// One test's folder: SOURCE (named as the library says), `mnt`, `cache.sqlite`, room for more.
final class Scratch {
    let path: String
    let library: Library
    let source: String
    let mountpoint: String
    let cache: String
    private var mounts: [Mount] = []
    private let sourceBefore: [[UInt8]: RawFiles.Snapshot]

    init(_ library: Library) throws {
        var template = Array("/tmp/assetfs-e2e.XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw HarnessError("mkdtemp: \(String(cString: strerror(errno)))") }
        path = String(cString: made)
        self.library = library
        source = path + "/" + library.sourceName
        mountpoint = path + "/mnt"
        cache = path + "/cache.sqlite"
        try library.materialize(in: Array(source.utf8))
        try RawFiles.makeDirectories(Array(mountpoint.utf8))
        sourceBefore = RawFiles.snapshot(Array(source.utf8))
    }

    var sourceBytes: [UInt8] { Array(source.utf8) }

    /// `assetfs -o cache=<private>,OPTIONS SOURCE MOUNTPOINT`, which must return once mounted.
    func mount(options: [String] = [], at point: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws -> Mount {
        let point = point ?? mountpoint
        let arguments = ["-o", (["cache=\(cache)"] + options).joined(separator: ","), source, point]
        return try adopt(point: point, command: AssetFS.binary, arguments: arguments, sourceLocation: sourceLocation)
    }

    /// Runs a command that should leave an assetfs mount on `point` and takes charge of it.
    func adopt(point: String, command: String, arguments: [String], environment: [String: String]? = nil,
               sourceLocation: SourceLocation = #_sourceLocation) throws -> Mount {
        guard FUSE.deviceExists else {
            Issue.record("ASSETFS_REQUIRE_FUSE=1 but /dev/fuse is missing: cannot mount", sourceLocation: sourceLocation)
            throw HarnessError("no /dev/fuse")
        }
        let mount = Mount(point: point)
        mounts.append(mount)  // before running: cleanUp unmounts it even if the checks below fail
        let output = Command.run(command, arguments, timeout: 120, environment: environment, mayLeaveDaemon: true, sourceLocation: sourceLocation)
        mount.startOutput = output
        guard output.status == 0 else {
            throw HarnessError("\(command) \(arguments.joined(separator: " ")) exited \(output.status): \(output.err)")
        }
        guard Mount.isMounted(point) else { throw HarnessError("\(command) returned 0 but nothing is mounted on \(point): \(output.err)") }
        mount.daemons = Mount.daemons(servingMountpoint: point)
        guard mount.daemons.count == 1 else {
            throw HarnessError("expected one assetfs process serving \(point), found \(mount.daemons)")
        }
        return mount
    }

    func cleanUp(checkSource: Bool, sourceLocation: SourceLocation) {
        for mount in mounts { mount.unmount(sourceLocation: sourceLocation) }
        let stillMounted = Mount.mountpoints().filter { $0.hasPrefix(path + "/") }
        guard stillMounted.isEmpty else {
            Issue.record("still mounted after unmounting: \(stillMounted); leaving \(path) in place", sourceLocation: sourceLocation)
            return
        }
        if checkSource { expectSourceUnchanged(sourceLocation: sourceLocation) }
        do { try FileManager.default.removeItem(atPath: path) } catch {
            Issue.record("cannot remove \(path): \(error)", sourceLocation: sourceLocation)
        }
    }

    /// Every source file and folder has the same contents, size, mode and mtime as before the test.
    func expectSourceUnchanged(sourceLocation: SourceLocation = #_sourceLocation) {
        let after = RawFiles.snapshot(sourceBytes)
        let changed = Set(sourceBefore.keys).union(after.keys).filter { sourceBefore[$0] != after[$0] }
        #expect(changed.isEmpty, "the source changed: \(changed.map(\.text).sorted())", sourceLocation: sourceLocation)
    }
}

/// One assetfs mount and its daemon.
final class Mount {
    let point: String
    var daemons: [pid_t] = []
    var startOutput: CommandOutput?
    private(set) var unmounted = false

    init(point: String) { self.point = point }

    var bytes: [UInt8] { Array(point.utf8) }
    var groups: [UInt8] { bytes / "groups" }

    func stats() throws -> MountStats {
        let value = try RawFiles.extendedAttribute("user.assetfs.stats", of: bytes).get()
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(MountStats.self, from: Data(value))
    }

    /// `fusermount3 -u`, else `umount -l`; then waits for the daemon to exit (killing it if it
    /// does not: it is ours). Safe to call twice.
    func unmount(sourceLocation: SourceLocation = #_sourceLocation) {
        guard !unmounted else { return }
        unmounted = true
        if daemons.isEmpty { daemons = Self.daemons(servingMountpoint: point) }
        if Self.isMounted(point) {
            let result = Command.run("fusermount3", ["-u", point], timeout: 60, sourceLocation: sourceLocation)
            if result.status != 0 || Self.isMounted(point) {
                Command.run("umount", ["-l", point], timeout: 60, sourceLocation: sourceLocation)
            }
        }
        for pid in daemons where !Self.waitForExit(pid, timeout: 30) {
            Issue.record("assetfs daemon \(pid) for \(point) still running 30 s after unmounting; killing it", sourceLocation: sourceLocation)
            kill(pid, SIGKILL)
        }
    }

    // MARK: Looking at the system

    /// Mount points from /proc/self/mountinfo (octal escapes undone).
    static func mountpoints() -> [String] {
        guard let text = try? String(contentsOfFile: "/proc/self/mountinfo", encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ")
            return fields.count > 4 ? unescape(String(fields[4])) : nil
        }
    }

    static func isMounted(_ point: String) -> Bool { mountpoints().contains(point) }

    /// The mountinfo line of `point`: "… - fstype source options".
    static func mountInfo(_ point: String) -> String? {
        guard let text = try? String(contentsOfFile: "/proc/self/mountinfo", encoding: .utf8) else { return nil }
        return text.split(separator: "\n").last { line in
            let fields = line.split(separator: " ")
            return fields.count > 4 && unescape(String(fields[4])) == point
        }.map(String.init)
    }

    private static func unescape(_ field: String) -> String {
        var result = "", characters = Array(field), i = 0
        while i < characters.count {
            if characters[i] == "\\", i + 3 < characters.count, let code = UInt8(String(characters[i + 1...i + 3]), radix: 8) {
                result.append(Character(Unicode.Scalar(code)))
                i += 4
            } else {
                result.append(characters[i])
                i += 1
            }
        }
        return result
    }

    /// Live assetfs processes whose command line names `point` as an argument (`pgrep -f`).
    static func daemons(servingMountpoint point: String) -> [pid_t] {
        let escaped = point.map { ".[]()*+?{}|^$\\".contains($0) ? "\\\($0)" : "\($0)" }.joined()
        let pattern = "assetfs .*" + escaped + "( |$)"
        let output = Command.run("pgrep", ["-f", "--", pattern], timeout: 30)
        return output.out.split(separator: "\n").compactMap { pid_t($0) }.filter { isAlive($0) }
    }

    /// Running (a zombie waiting for a reaper counts as exited).
    static func isAlive(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return false }
        let state = stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).first
        return state != "Z" && state != "X"
    }

    static func waitForExit(_ pid: pid_t, timeout: Double) -> Bool {
        eventually(timeout: timeout, interval: 0.05) { !isAlive(pid) }
    }
}

/// The errno of `stat(path)` (0 when it succeeds).
func statErrno(_ path: [UInt8]) -> Int32 {
    switch RawFiles.status(path) {
    case .success: return 0
    case .failure(let error): return error.code
    }
}
