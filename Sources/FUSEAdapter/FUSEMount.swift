internal import CFUSE
import AssetFS
import MountModel
import Glibc
import Posix

/// A mounted `AssetFileSystem`: the libfuse session from mount to unmount.
public final class FUSEMount: @unchecked Sendable {
    private let operations: FUSEOperations
    private let fileSystem: AssetFileSystem
    private let session: OpaquePointer
    let mountpoint: String

    public struct Failure: Error, Sendable { public var message: String }

    /// Creates the session with `libfuseArguments` (program name first) and mounts it.
    public init(fileSystem: AssetFileSystem, mountpoint: String, libfuseArguments: [String]) throws(Failure) {
        LibfuseLog.install()
        self.fileSystem = fileSystem
        operations = FUSEOperations(fileSystem: fileSystem, othersMayEnter: FUSEArguments.lets(otherUsersIn: libfuseArguments))
        self.mountpoint = mountpoint
        var args = FUSEArguments.makeArgs(libfuseArguments)
        defer { fuse_opt_free_args(&args) }
        var ops = FUSEOperations.table()
        guard let session = fuse_session_new(&args, &ops, MemoryLayout<fuse_lowlevel_ops>.size,
                                             Unmanaged.passUnretained(operations).toOpaque()) else {
            throw Failure(message: "libfuse refused the options \(libfuseArguments.dropFirst().joined(separator: " ")) (see 'assetfs --help')")
        }
        self.session = session
        fileSystem.whenKernelMustForget { [weak self] in self?.invalidate($0) }
        guard fuse_set_signal_handlers(session) == 0 else {
            fuse_session_destroy(session)
            throw Failure(message: "cannot install signal handlers")
        }
        Signals.unblockTerminationInCurrentThread()  // the thread that will run the session loop
        let (status, messages) = LibfuseLog.capturing { fuse_session_mount(session, mountpoint) }
        guard status == 0 else {
            fuse_remove_signal_handlers(session)
            fuse_session_destroy(session)
            throw Failure(message: MountFailure.message(mountpoint: mountpoint, libfuseMessages: messages))
        }
    }

    /// Checks `libfuseArguments` the way the mount will use them, without mounting: an unknown
    /// option is one line naming it, before any time is spent scanning the source.
    public static func validate(libfuseArguments: [String]) throws(Failure) {
        if let reason = refusal(of: libfuseArguments) { throw Failure(message: "\(reason); see 'assetfs --help' for the options") }
    }

    /// libfuse's reason for refusing `libfuseArguments` (program name first) in
    /// `fuse_session_new`, or nil when it takes them.
    static func refusal(of libfuseArguments: [String]) -> String? {
        var ops = fuse_lowlevel_ops()
        let (session, messages) = LibfuseLog.capturing { () -> OpaquePointer? in
            var args = FUSEArguments.makeArgs(libfuseArguments)
            defer { fuse_opt_free_args(&args) }
            return fuse_session_new(&args, &ops, MemoryLayout<fuse_lowlevel_ops>.size, nil)
        }
        guard let session else { return messages.first ?? "options refused" }
        fuse_session_destroy(session)
        return nil
    }

    /// Goes to the background unless `foreground` (the parent exits once the mount serves, or
    /// with the failure); calls `prepare` in the process that will serve (requests wait in the
    /// kernel meanwhile), `started` once it serves, and serves requests until unmounted or
    /// signalled (SIGINT, SIGTERM; SIGHUP too in the foreground, where it means the terminal
    /// went away, while a daemon reopens its log on it); then calls `stopping`, which must end
    /// everything that may still reply or notify (renders, the watcher) before the session goes.
    public func run(foreground: Bool, singleThreaded: Bool, prepare: () -> Void, started: @escaping @Sendable () -> Void,
                    stopping: () -> Void) -> Int32 {
        let daemon = foreground ? nil : try? Daemon.detach()  // nil only if fork fails: then it serves in the foreground
        if daemon != nil { reopenLogOnHangUp() }
        prepare()
        whenServing { started(); daemon?.ready() }
        let status: Int32
        if singleThreaded {
            status = fuse_session_loop(session)
        } else {
            let config = fuse_loop_cfg_create()
            defer { fuse_loop_cfg_destroy(config) }
            // Requests that wait (renders) do not hold a thread, so a few threads serve everything;
            // more only add wake-ups and context switches (measured in bench/fs-bench.sh). Idle
            // threads are left to libfuse's default, which never ends them: with 2 allowed idle,
            // a cold `find` of 10,000 asset folders started and ended a thread every 33 requests.
            fuse_loop_cfg_set_max_threads(config, 4)
            status = cfuse_session_loop_mt(session, config)
        }
        stopping()
        fileSystem.whenKernelMustForget { _ in }  // the session goes: nothing may notify it now
        fuse_session_unmount(session)
        fuse_remove_signal_handlers(session)
        fuse_session_destroy(session)
        return status == 0 || status == SIGTERM || status == SIGINT || status == SIGHUP ? 0 : 1
    }

    /// Tells the kernel to forget what a source change made stale. Called from the watcher's
    /// and the background's threads, never inside a request handler (where it could deadlock).
    private func invalidate(_ invalidations: [Invalidation]) {
        for invalidation in invalidations {
            switch invalidation {
            case .entry(let parent, let name):
                _ = name.withUnsafeBufferPointer { buffer in
                    buffer.withMemoryRebound(to: CChar.self) {
                        fuse_lowlevel_notify_inval_entry(session, fuse_ino_t(parent), $0.baseAddress, name.count)
                    }
                }
            case .inode(let inode):
                _ = fuse_lowlevel_notify_inval_inode(session, fuse_ino_t(inode), 0, 0)
            }
        }
    }
}
