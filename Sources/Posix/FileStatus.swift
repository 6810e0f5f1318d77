import Glibc

/// The parts of `struct stat` assetfs uses, with nanosecond mtime.
public struct FileStatus: Sendable, Equatable {
    public var device: UInt64
    public var inode: UInt64
    public var mode: UInt32
    public var userID: UInt32
    public var groupID: UInt32
    public var size: Int64
    public var modificationNanoseconds: Int64
    /// Changes on every write, chmod or rename, and cannot be set back by users: the one time that
    /// tells an in-place edit whose mtime was restored.
    public var changeNanoseconds: Int64

    public init(device: UInt64, inode: UInt64, mode: UInt32, userID: UInt32, groupID: UInt32, size: Int64,
                modificationNanoseconds: Int64, changeNanoseconds: Int64) {
        self.device = device
        self.inode = inode
        self.mode = mode
        self.userID = userID
        self.groupID = groupID
        self.size = size
        self.modificationNanoseconds = modificationNanoseconds
        self.changeNanoseconds = changeNanoseconds
    }

    public init(_ st: stat) {
        device = UInt64(st.st_dev)
        inode = UInt64(st.st_ino)
        mode = UInt32(st.st_mode)
        userID = st.st_uid
        groupID = st.st_gid
        size = Int64(st.st_size)
        modificationNanoseconds = Self.nanoseconds(st.st_mtim)
        changeNanoseconds = Self.nanoseconds(st.st_ctim)
    }

    /// Nanoseconds since the epoch, saturated: ext4 stores dates from 1901 to 2446, beyond what
    /// Int64 nanoseconds hold (1677 to 2262), and a bogus camera clock must not trap.
    public static func nanoseconds(_ time: timespec) -> Int64 {
        let (product, overflow) = Int64(time.tv_sec).multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return time.tv_sec < 0 ? Int64.min : Int64.max }
        let (sum, overflowSum) = product.addingReportingOverflow(Int64(time.tv_nsec))
        return overflowSum ? Int64.max : sum
    }

    public var isDirectory: Bool { mode & UInt32(S_IFMT) == UInt32(S_IFDIR) }
    public var isRegularFile: Bool { mode & UInt32(S_IFMT) == UInt32(S_IFREG) }
    public var isSymbolicLink: Bool { mode & UInt32(S_IFMT) == UInt32(S_IFLNK) }
    public var permissions: UInt32 { mode & 0o7777 }

    /// `stat(2)` or, with `followLinks: false`, `lstat(2)`.
    public init(path: FilePath, followLinks: Bool = true) throws(Errno) {
        var st = stat()
        _ = try syscall { path.withCString { followLinks ? stat($0, &st) : lstat($0, &st) } }
        self.init(st)
    }
}
