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

    public init(userID: UInt32, groupID: UInt32, permissions: UInt32, modificationNanoseconds: Int64) {
        self.userID = userID
        self.groupID = groupID
        self.permissions = permissions
        self.modificationNanoseconds = modificationNanoseconds
    }
}

/// A photo in the source tree.
public struct Photo: Hashable, Sendable {
    /// Path relative to the source root.
    public var relativePath: FilePath
    public var fileName: [UInt8]
    public var identity: SourceIdentity
    public var userID: UInt32
    public var groupID: UInt32
    /// Its permission bits, read bits only (the mount is read-only).
    public var permissions: UInt32
    /// What its content says it is.
    public var format: SourceFormat

    public init(relativePath: FilePath, fileName: [UInt8], identity: SourceIdentity, userID: UInt32, groupID: UInt32, permissions: UInt32,
                format: SourceFormat = .jpeg) {
        (self.relativePath, self.fileName, self.identity, self.format) = (relativePath, fileName, identity, format)
        (self.userID, self.groupID, self.permissions) = (userID, groupID, permissions)
    }

    /// What its files show: its owner and bits, and its modification time (the identity's: kept once).
    public var ownership: Ownership {
        Ownership(userID: userID, groupID: groupID, permissions: permissions, modificationNanoseconds: identity.modificationNanoseconds)
    }

    /// The name of its `original.*` file in the mount.
    public var originalFileName: [UInt8] { Self.shownFileName("original", fileName: fileName, format: format) }

    /// The name it has as an original's edit in the mount: `edited.*`.
    public var editedFileName: [UInt8] { Self.editedFileName(fileName: fileName, format: format) }

    /// The name a file called `fileName` of format `format` has as an original's edit: what the
    /// kernel is told of when the pair breaks, the edit's row gone.
    public static func editedFileName(fileName: [UInt8], format: SourceFormat) -> [UInt8] {
        shownFileName("edited", fileName: fileName, format: format)
    }

    /// The name of a file called `fileName` in the mount as `stem`: `stem.jpg` for a JPEG, else
    /// the source's own extension in lower case (`original.heic`, `original.nef`), so tools that
    /// go by the extension open it right; the format's usual one when the source has none.
    private static func shownFileName(_ stem: String, fileName: [UInt8], format: SourceFormat) -> [UInt8] {
        let name = Array("\(stem).".utf8)
        guard format != .jpeg else { return name + Array("jpg".utf8) }
        if let dot = fileName.lastIndex(of: UInt8(ascii: ".")), dot > 0 {
            let ext = fileName[(dot + 1)...].asciiLowercased
            if (1...8).contains(ext.count), ext.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x7A).contains($0) }) {
                return name + ext
            }
        }
        return name + Array(format.usualExtension.utf8)
    }
}
