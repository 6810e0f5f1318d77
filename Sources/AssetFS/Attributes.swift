import Posix

/// What `stat` shows for a node, free of FUSE types.
public struct Attributes: Sendable, Equatable {
    public var inode: UInt64
    public var isDirectory: Bool
    public var permissions: UInt32
    public var size: Int64
    public var userID: UInt32
    public var groupID: UInt32
    public var modificationNanoseconds: Int64
    public var linkCount: Int
    /// A symbolic link (`ids/<id>`), whose size is its target's length.
    public var isSymbolicLink = false
}

/// One entry of a folder listing, with the cookie that continues the listing after it.
public struct ListingEntry: Sendable, Equatable {
    public var name: [UInt8]
    public var inode: UInt64
    public var isDirectory: Bool
    public var cookie: Int64

    public init(name: [UInt8], inode: UInt64, isDirectory: Bool, cookie: Int64) {
        self.name = name
        self.inode = inode
        self.isDirectory = isDirectory
        self.cookie = cookie
    }
}

/// An open file: the source itself for `original.jpg` (read in place, never buffered whole),
/// or a rendition, read from the cache range by range (an eviction meanwhile renders the same
/// bytes again, so it cannot cut a read short).
public enum OpenFile: Sendable {
    /// The source open, and the bytes of it this file shows: all of it for an original, the
    /// embedded video's range for a Motion Photo's `motion.mp4`. Shared: the adapter's handle
    /// table lends it to every READ, on any thread, and it closes once RELEASE and the last of
    /// those reads have let it go.
    case original(SharedFileDescriptor, window: Range<Int64>)
    /// nil: the placeholder of a photo that cannot be shown.
    case rendition(RenditionRequest?)
}
