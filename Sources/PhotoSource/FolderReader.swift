import Glibc
import Posix

/// One folder of the source tree as read now: its own status, its subfolders and its photos.
public struct FolderListing: Sendable {
    public var status: FileStatus
    /// Visible subfolders (not dot-named), by name.
    public var subfolders: [(name: [UInt8], status: FileStatus)]
    /// In bytewise order of file name.
    public var photos: [Photo]
    /// Files not shown: hidden, not a photo, unreadable.
    public var skipped: Int
}

/// Reads one folder of SOURCE, and only that folder: the unit of every scan, so a change costs
/// what it touches. Reads only: files are opened to sniff their first bytes, never written.
/// Symbolic links are followed only when they stay inside the root, unless `followSymlinks`.
public struct FolderReader: Sendable {
    public let root: FilePath
    public let followSymlinks: Bool

    public init(root: FilePath, followSymlinks: Bool) {
        self.root = root
        self.followSymlinks = followSymlinks
    }

    /// Reads folder `relative` (empty: the root). `known` maps file names to identities already
    /// sniffed as photos: a file whose identity is unchanged is not opened again.
    public func read(_ relative: FilePath, known: [[UInt8]: SourceIdentity] = [:]) throws(Errno) -> FolderListing {
        let path = root.appending(relative)
        let status = try FileStatus(path: path)
        guard status.isDirectory else { throw Errno.notDirectory }
        let entries = try Directory.entries(of: path).sorted { $0.name.lexicographicallyPrecedes($1.name) }
        var listing = FolderListing(status: status, subfolders: [], photos: [], skipped: 0)
        for entry in entries {
            let child = relative.appending(entry.name)
            guard let childStatus = follow(child) else { listing.skipped += 1; continue }
            let hidden = entry.name.first == UInt8(ascii: ".")
            if childStatus.isDirectory {
                if !hidden { listing.subfolders.append((entry.name, childStatus)) }
                continue
            }
            let identity = SourceIdentity(childStatus)
            guard !hidden, childStatus.isRegularFile, known[entry.name] == identity || isPhoto(root.appending(child)) else {
                listing.skipped += 1
                continue
            }
            listing.photos.append(Photo(
                relativePath: child, fileName: entry.name, identity: identity,
                ownership: Ownership(userID: childStatus.userID, groupID: childStatus.groupID,
                                     permissions: childStatus.permissions & 0o444,
                                     modificationNanoseconds: childStatus.modificationNanoseconds)))
        }
        return listing
    }

    /// The status of what `relative` names, following a symbolic link only where allowed.
    private func follow(_ relative: FilePath) -> FileStatus? {
        let path = root.appending(relative)
        guard let status = try? FileStatus(path: path, followLinks: false) else { return nil }
        guard status.isSymbolicLink else { return status }
        if !followSymlinks {
            guard let target = try? path.resolved(),
                  target == root || target.bytes.starts(with: root.bytes + [UInt8(ascii: "/")]) else { return nil }
        }
        return try? FileStatus(path: path)
    }

    /// Content sniffing: JPEG starts with FF D8. Opened non-blocking, so a FIFO cannot hold the scan.
    private func isPhoto(_ path: FilePath) -> Bool {
        guard let file = try? FileDescriptor.openReadOnly(path, nonBlocking: true) else { return false }
        defer { file.close() }
        return (try? file.read(upTo: 2, at: 0)) == [0xFF, 0xD8]
    }
}
