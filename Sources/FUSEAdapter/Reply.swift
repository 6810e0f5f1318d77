internal import CFUSE
import AssetFS
import Glibc
import Posix

/// One kernel request, answered exactly once by one of the `reply` methods (as libfuse's
/// examples do: an inner function computes a result or an errno, the handler sends it).
/// It may travel to another thread and be answered there.
struct Request: @unchecked Sendable {
    let raw: fuse_req_t

    /// Entries and attributes rarely change, and when the source does the kernel is told
    /// (notify_inval_*), so the kernel may keep them long.
    static let timeout = 3600.0

    var adapter: FUSEOperations { Unmanaged<FUSEOperations>.fromOpaque(fuse_req_userdata(raw)!).takeUnretainedValue() }

    func reply(error: Errno) { fuse_reply_err(raw, error.rawValue) }

    func replyEntry(_ result: Result<Attributes, Errno>) {
        switch result {
        case .failure(let error): reply(error: error)
        case .success(let attributes):
            var entry = Self.entry(attributes)
            // Kept, the entry would let the next user who walks here past this user's check.
            if !adapter.sharesEntry(attributes.inode) { entry.entry_timeout = 0 }
            fuse_reply_entry(raw, &entry)
        }
    }

    /// What a lookup answers, and a listing with attributes gives for each entry it can.
    static func entry(_ attributes: Attributes) -> fuse_entry_param {
        var entry = fuse_entry_param()
        entry.ino = fuse_ino_t(attributes.inode)
        entry.generation = generation(of: entry.ino)
        entry.attr = stat(attributes)
        entry.attr_timeout = timeout
        entry.entry_timeout = timeout
        return entry
    }

    /// The generation an NFS handle carries with the inode number. The kernel made the root's
    /// inode itself, with generation 0, before any request; a lookup that answers it with another
    /// (".." of a top folder, asked when a handle is reconnected) logs "root generation should be
    /// zero" (fs/fuse/dir.c, fuse_lookup_name); kernels from 5.14 until that check took the root
    /// for a reused inode number and marked it bad. Every other inode keeps the 1 that handles
    /// given out so far carry.
    static func generation(of inode: fuse_ino_t) -> UInt64 {
        inode == fuse_ino_t(FUSE_ROOT_ID) ? 0 : 1
    }

    func replyAttributes(_ result: Result<Attributes, Errno>) {
        switch result {
        case .failure(let error): reply(error: error)
        case .success(let attributes):
            var st = Self.stat(attributes)
            fuse_reply_attr(raw, &st, Self.timeout)
        }
    }

    func reply(bytes: [UInt8]) {
        bytes.withUnsafeBytes { _ = fuse_reply_buf(raw, $0.baseAddress, $0.count) }
    }

    func replyBytes(_ result: Result<[UInt8], Errno>) {
        switch result {
        case .success(let bytes): reply(bytes: bytes)
        case .failure(let error): reply(error: error)
        }
    }

    /// The answer to a size probe (`size` 0) or the bytes, or ERANGE when they do not fit.
    func replyAttribute(_ value: [UInt8], size: Int) {
        if size == 0 { fuse_reply_xattr(raw, value.count) }
        else if value.count > size { reply(error: .range) }
        else { reply(bytes: value) }
    }

    static func stat(_ attributes: Attributes) -> Glibc.stat {
        var st = Glibc.stat()
        st.st_ino = ino_t(attributes.inode)
        st.st_mode = (attributes.isDirectory ? S_IFDIR : S_IFREG) | mode_t(attributes.permissions)
        st.st_nlink = nlink_t(attributes.linkCount)
        st.st_uid = attributes.userID
        st.st_gid = attributes.groupID
        st.st_size = off_t(attributes.size)
        st.st_blksize = 4096
        // Rounded up without overflow, even for a sparse file of 8 EiB.
        st.st_blocks = blkcnt_t(attributes.size / 512 + (attributes.size % 512 == 0 ? 0 : 1))
        // Floor division: a time before 1970 has a negative second and a positive nanosecond part.
        let (seconds, nanoseconds) = attributes.modificationNanoseconds.quotientAndRemainder(dividingBy: 1_000_000_000)
        let time = nanoseconds < 0 ? timespec(tv_sec: Int(seconds - 1), tv_nsec: Int(nanoseconds + 1_000_000_000))
                                   : timespec(tv_sec: Int(seconds), tv_nsec: Int(nanoseconds))
        st.st_mtim = time
        st.st_atim = time
        st.st_ctim = time
        return st
    }
}
