internal import CFUSE
import AssetFS
import Dispatch
import Glibc
import Posix

/// One kernel request, answered exactly once. libfuse frees a request on its first reply, so the
/// type is non-copyable and every reply consumes it: a second reply does not compile. A request
/// dropped without a reply (a path that forgets one, a completion never called) answers EIO from
/// `deinit`, so the caller's system call fails instead of waiting forever. Handlers compute a
/// result or an errno and one reply sends it, as libfuse's examples do; a request answered on
/// another thread travels there in a `PendingRequest`.
///
/// Sendable unchecked: the compiler cannot see into the C pointer (nor take it as `sending`: it
/// arrives as a C callback's parameter), but libfuse lets any thread reply, and a non-copyable
/// value has one owner, so no two threads answer the same request.
struct Request: ~Copyable, @unchecked Sendable {
    /// Private: only the consuming replies below answer it, so none can bypass the check.
    private let raw: fuse_req_t
    /// Held for libfuse's interrupt callback from `interruptible()` until the reply.
    private var interruption: Unmanaged<Interruption>?

    init(_ raw: fuse_req_t) { self.raw = raw }

    deinit {
        forgetInterruption()
        fuse_reply_err(raw, RequestFailure.unanswered.errno.rawValue)
    }

    /// What tells the work this request waits for that its caller went (FUSE INTERRUPT: a
    /// signal, a killed reader), registered with libfuse on first use. libfuse calls back on the
    /// thread that read the INTERRUPT, with this request's lock held, so the work hears of it on
    /// another thread (its completion replies, and a reply takes that lock to unregister).
    mutating func interruptible() -> Interruption {
        if let interruption { return interruption.takeUnretainedValue() }
        let interruption = Interruption()
        self.interruption = Unmanaged.passRetained(interruption)
        fuse_req_interrupt_func(raw, { _, data in
            let interruption = Unmanaged<Interruption>.fromOpaque(data!).takeUnretainedValue()
            DispatchQueue.global().async { interruption.interrupt() }
        }, self.interruption!.toOpaque())
        return interruption
    }

    /// Unregisters the interrupt callback before the reply frees the request: libfuse waits for a
    /// callback running meanwhile (it holds the request's lock), so the object is not released under it.
    private func forgetInterruption() {
        guard let interruption else { return }
        fuse_req_interrupt_func(raw, nil, nil)
        interruption.release()
    }

    /// Entries and attributes rarely change, and when the source does the kernel is told
    /// (notify_inval_*), so the kernel may keep them long.
    static let timeout = 3600.0

    var adapter: FUSEOperations { Unmanaged<FUSEOperations>.fromOpaque(fuse_req_userdata(raw)!).takeUnretainedValue() }

    /// Who sent the request. Supplementary groups are read (from /proc, by libfuse) only for a
    /// caller whose rights are checked.
    var caller: Credentials {
        let context = fuse_req_ctx(raw)!.pointee
        var caller = Credentials(userID: context.uid, groupID: context.gid)
        guard !caller.reachesAllThisProcessReaches else { return caller }
        var groups = [gid_t](repeating: 0, count: 64)
        var count = Int(fuse_req_getgroups(raw, Int32(groups.count), &groups))
        if count > groups.count {
            groups = [gid_t](repeating: 0, count: count)
            count = Int(fuse_req_getgroups(raw, Int32(groups.count), &groups))
        }
        caller.groups = Array(groups.prefix(max(0, min(count, groups.count))))
        return caller
    }

    /// Ends the request: what `send` tells libfuse is its one reply, and `deinit` adds none.
    private consuming func answer<R>(_ send: (fuse_req_t) -> R) -> R {
        forgetInterruption()
        let raw = self.raw
        discard self
        return send(raw)
    }

    consuming func reply(error: Errno) { answer { _ = fuse_reply_err($0, error.rawValue) } }

    consuming func refuse(_ reason: RequestFailure) { reply(error: reason.errno) }

    /// The answer to a request that carries no data (RELEASE, ACCESS): errno 0.
    consuming func replySuccess() { reply(error: Errno(rawValue: 0)) }

    consuming func replyEntry(_ result: Result<Attributes, Errno>) {
        switch result {
        case .failure(let error): reply(error: error)
        case .success(let attributes):
            var entry = Self.entry(attributes)
            // Kept, the entry would let the next user who walks here past this user's check.
            if !adapter.sharesEntry(attributes.inode) { entry.entry_timeout = 0 }
            // A link's name stands for what the catalog says now (`ids/<id>`: whichever photo has
            // that content, renamed or copied since): it is looked up again each time, one statement.
            if attributes.isSymbolicLink { (entry.entry_timeout, entry.attr_timeout) = (0, 0) }
            answer { _ = fuse_reply_entry($0, &entry) }
        }
    }

    consuming func replyAttributes(_ result: Result<Attributes, Errno>) {
        switch result {
        case .failure(let error): reply(error: error)
        case .success(let attributes):
            var st = Self.stat(attributes)
            answer { _ = fuse_reply_attr($0, &st, Self.timeout) }
        }
    }

    consuming func reply(bytes: [UInt8]) {
        answer { raw in bytes.withUnsafeBytes { _ = fuse_reply_buf(raw, $0.baseAddress, $0.count) } }
    }

    consuming func replyBytes(_ result: Result<[UInt8], Errno>) {
        switch result {
        case .success(let bytes): reply(bytes: bytes)
        case .failure(let error): reply(error: error)
        }
    }

    /// A symbolic link's target (libfuse copies it).
    consuming func replyLink(_ target: [UInt8]) {
        answer { raw in (target + [0]).withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { _ = fuse_reply_readlink(raw, $0.baseAddress) } } }
    }

    /// The answer to a size probe (`size` 0) or the bytes, or ERANGE when they do not fit.
    consuming func replyAttribute(_ value: [UInt8], size: Int) {
        if size == 0 { answer { _ = fuse_reply_xattr($0, value.count) } }
        else if value.count > size { refuse(.attributeTooLarge) }
        else { reply(bytes: value) }
    }

    /// Whether the reply reached the kernel: it does not when the opener went away meanwhile.
    consuming func replyOpen(_ info: fuse_file_info) -> Bool {
        var info = info
        return answer { fuse_reply_open($0, &info) == 0 }
    }

    consuming func replyStatfs(_ info: statvfs) {
        var info = info
        answer { _ = fuse_reply_statfs($0, &info) }
    }

    /// Packs one listing entry at `buffer` (nil only measures) and gives the bytes it takes.
    /// libfuse only reads the request here; it stays unanswered.
    func addDirectoryEntry(_ buffer: UnsafeMutablePointer<CChar>?, room: Int, name: UnsafePointer<CChar>,
                           status: inout Glibc.stat, offset: off_t) -> Int {
        fuse_add_direntry(raw, buffer, room, name, &status, offset)
    }

    /// `addDirectoryEntry` for READDIRPLUS: the entry carries `entry`'s attributes (none: nil).
    func addDirectoryEntryPlus(_ buffer: UnsafeMutablePointer<CChar>?, room: Int, name: UnsafePointer<CChar>,
                               entry: UnsafePointer<fuse_entry_param>?, offset: off_t) -> Int {
        fuse_add_direntry_plus(raw, buffer, room, name, entry, offset)
    }
}
