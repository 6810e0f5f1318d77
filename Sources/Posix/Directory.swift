import Glibc

/// One entry of a directory listing: the raw name bytes, and as the listing tells them (`d_ino`,
/// `d_type`) its inode number and whether it is a folder, which cost no `stat`.
public struct DirectoryEntry: Sendable, Hashable {
    public var name: [UInt8]
    public var inode: UInt64 = 0
    public var isDirectory = false
}

public enum Directory {
    /// The names in `path`, without `.` and `..`, in no particular order (`opendir`/`readdir`).
    public static func entries(of path: FilePath) throws(Errno) -> [DirectoryEntry] {
        guard let dir = path.withCString({ opendir($0) }) else { throw Errno.current }
        defer { closedir(dir) }
        return entries(of: dir)
    }

    /// The names an open directory stream gives, without `.` and `..`.
    static func entries(of dir: OpaquePointer) -> [DirectoryEntry] {
        var result: [DirectoryEntry] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                Array(raw.prefix(while: { $0 != 0 }))
            }
            if name == [UInt8(ascii: ".")] || name == [UInt8(ascii: "."), UInt8(ascii: ".")] { continue }
            result.append(DirectoryEntry(name: name, inode: UInt64(entry.pointee.d_ino), isDirectory: entry.pointee.d_type == UInt8(DT_DIR)))
        }
        return result
    }

    /// `mkdir -p` with `permissions` for the directories it creates.
    public static func create(_ path: FilePath, permissions: mode_t = 0o755) throws(Errno) {
        var current = FilePath(bytes: path.bytes.first == UInt8(ascii: "/") ? [UInt8(ascii: "/")] : [])
        for component in path.components {
            current = current.appending(component)
            let result = current.withCString { mkdir($0, permissions) }
            if result == -1 && errno != EEXIST { throw Errno.current }
        }
    }
}
