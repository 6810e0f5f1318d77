internal import CFUSE
import AssetFS
import Glibc

/// Attributes as the kernel reads them in replies and listings.
extension Request {
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

    static func stat(_ attributes: Attributes) -> Glibc.stat {
        var st = Glibc.stat()
        st.st_ino = ino_t(attributes.inode)
        st.st_mode = (attributes.isSymbolicLink ? S_IFLNK : attributes.isDirectory ? S_IFDIR : S_IFREG) | mode_t(attributes.permissions)
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
