import Posix

/// What identifies a source file's content for caching: its inode, size, mtime and ctime. Not the
/// device number, which changes when the same disk is plugged in again. The ctime catches an
/// in-place edit whose mtime was put back (`touch -r`), at the price of rendering again after a
/// chmod or chown of the photo.
public struct SourceIdentity: Hashable, Sendable {
    public var inode: UInt64
    public var size: Int64
    public var modificationNanoseconds: Int64
    public var changeNanoseconds: Int64

    public init(inode: UInt64, size: Int64, modificationNanoseconds: Int64, changeNanoseconds: Int64) {
        self.inode = inode
        self.size = size
        self.modificationNanoseconds = modificationNanoseconds
        self.changeNanoseconds = changeNanoseconds
    }

    public init(_ status: FileStatus) {
        self.init(inode: status.inode, size: status.size, modificationNanoseconds: status.modificationNanoseconds,
                  changeNanoseconds: status.changeNanoseconds)
    }

    /// For keys and inode numbers: every field, in a fixed order.
    public var text: String { "\(inode):\(size):\(modificationNanoseconds):\(changeNanoseconds)" }
}

/// Owner, permission bits and times to show for something derived from a source file or folder.
public struct Ownership: Hashable, Sendable {
    public var userID: UInt32
    public var groupID: UInt32
    public var permissions: UInt32
    public var modificationNanoseconds: Int64
}

/// A JPEG in the source tree.
public struct Photo: Hashable, Sendable {
    /// Path relative to the source root.
    public var relativePath: FilePath
    public var fileName: [UInt8]
    public var identity: SourceIdentity
    public var ownership: Ownership
}

/// A folder of the source tree that directly holds at least one photo.
public struct PhotoAlbum: Hashable, Sendable {
    /// Path relative to the source root; empty for the root itself.
    public var relativePath: FilePath
    /// The folder's owner and mtime; its permissions are no wider than those of every folder
    /// on the way down from the root (a private folder above keeps its albums private).
    public var ownership: Ownership
    /// In bytewise order of file name.
    public var photos: [Photo]
}

/// An immutable snapshot of the photo tree.
public struct PhotoLibrary: Sendable {
    /// The real path of the source root.
    public var root: FilePath
    /// In bytewise order of relative path.
    public var albums: [PhotoAlbum]
    /// Files not shown: hidden, not JPEG, unreadable.
    public var skipped: Int
    /// Every folder walked (relative), album or not: what a watcher must watch.
    public var folders: [FilePath]

    public init(root: FilePath, albums: [PhotoAlbum], skipped: Int, folders: [FilePath]) {
        self.root = root
        self.albums = albums
        self.skipped = skipped
        self.folders = folders
    }

    public var photoCount: Int { albums.reduce(0) { $0 + $1.photos.count } }
}
