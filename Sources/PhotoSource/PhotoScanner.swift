import Glibc
import Posix

/// Walks a source tree into a `PhotoLibrary`. Reads only: it opens files to sniff their first two
/// bytes and never writes. Symbolic links are followed only when they stay inside the root, unless
/// `followSymlinks`; folders already visited (by device and inode) are not entered twice, so link
/// loops end.
public struct PhotoScanner: Sendable {
    public var followSymlinks: Bool

    public init(followSymlinks: Bool = false) { self.followSymlinks = followSymlinks }

    public func scan(_ root: FilePath) throws(Errno) -> PhotoLibrary {
        let realRoot = try root.resolved()
        let rootStatus = try FileStatus(path: realRoot)
        guard rootStatus.isDirectory else { throw Errno.notDirectory }
        var walk = Walk(root: realRoot, followSymlinks: followSymlinks)
        walk.visit(FilePath(bytes: []), status: rootStatus, inheritedPermissions: 0o555)
        return PhotoLibrary(root: realRoot, albums: walk.albums.sorted { $0.relativePath < $1.relativePath }, skipped: walk.skipped, folders: walk.folders)
    }
}

private struct Walk {
    let root: FilePath
    let followSymlinks: Bool
    var albums: [PhotoAlbum] = []
    var skipped = 0
    var visited: Set<[UInt64]> = []
    var folders: [FilePath] = []

    init(root: FilePath, followSymlinks: Bool) {
        self.root = root
        self.followSymlinks = followSymlinks
    }

    mutating func visit(_ relative: FilePath, status: FileStatus, inheritedPermissions: UInt32) {
        guard visited.insert([status.device, status.inode]).inserted else { return }
        let path = root.appending(relative)
        folders.append(relative)
        let permissions = inheritedPermissions & status.permissions & 0o555
        guard let entries = try? Directory.entries(of: path) else {
            Log.warning("\(path): cannot list folder, skipped")
            return
        }
        var photos: [Photo] = []
        var folders: [(FilePath, FileStatus)] = []
        for entry in entries.sorted(by: { $0.name.lexicographicallyPrecedes($1.name) }) {
            let child = relative.appending(entry.name)
            guard let childStatus = follow(child) else { skipped += 1; continue }
            if childStatus.isDirectory {
                if entry.name.first != UInt8(ascii: ".") { folders.append((child, childStatus)) }
            } else if entry.name.first == UInt8(ascii: ".") || !childStatus.isRegularFile || !isJPEG(root.appending(child)) {
                skipped += 1
            } else {
                photos.append(Photo(
                    relativePath: child, fileName: entry.name,
                    identity: SourceIdentity(childStatus),
                    ownership: Ownership(userID: childStatus.userID, groupID: childStatus.groupID,
                                         permissions: childStatus.permissions & 0o444,
                                         modificationNanoseconds: childStatus.modificationNanoseconds)))
            }
        }
        if !photos.isEmpty {
            albums.append(PhotoAlbum(relativePath: relative,
                                     ownership: Ownership(userID: status.userID, groupID: status.groupID, permissions: permissions,
                                                          modificationNanoseconds: status.modificationNanoseconds),
                                     photos: photos))
        }
        for (folder, folderStatus) in folders { visit(folder, status: folderStatus, inheritedPermissions: permissions) }
    }

    /// The status of what `relative` names, following a symbolic link only where allowed.
    func follow(_ relative: FilePath) -> FileStatus? {
        let path = root.appending(relative)
        guard let status = try? FileStatus(path: path, followLinks: false) else { return nil }
        guard status.isSymbolicLink else { return status }
        if !followSymlinks {
            guard let target = try? path.resolved(),
                  target == root || target.bytes.starts(with: root.bytes + [UInt8(ascii: "/")]) else { return nil }
        }
        return try? FileStatus(path: path)
    }

    func isJPEG(_ path: FilePath) -> Bool {
        guard let file = try? FileDescriptor.openReadOnly(path) else { return false }
        defer { file.close() }
        return (try? file.read(upTo: 2, at: 0)) == [0xFF, 0xD8]
    }
}
