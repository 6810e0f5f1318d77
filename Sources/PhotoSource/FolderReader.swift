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
        let folder = try OpenFolder(root.appending(relative))
        defer { folder.close() }
        let status = try folder.status()
        let entries = try folder.entries().sorted { $0.name.lexicographicallyPrecedes($1.name) }
        var listing = FolderListing(status: status, subfolders: [], photos: [], skipped: 0)
        for entry in entries {
            guard let childStatus = follow(entry.name, in: folder, at: relative) else { listing.skipped += 1; continue }
            let hidden = entry.name.first == UInt8(ascii: ".")
            if childStatus.isDirectory {
                if !hidden { listing.subfolders.append((entry.name, childStatus)) }
                continue
            }
            let identity = SourceIdentity(childStatus)
            guard !hidden, childStatus.isRegularFile, known[entry.name] == identity || isPhoto(entry.name, in: folder) else {
                listing.skipped += 1
                continue
            }
            listing.photos.append(Photo(
                relativePath: relative.appending(entry.name), fileName: entry.name, identity: identity,
                ownership: Ownership(userID: childStatus.userID, groupID: childStatus.groupID,
                                     permissions: childStatus.permissions & 0o444,
                                     modificationNanoseconds: childStatus.modificationNanoseconds)))
        }
        return listing
    }

    /// The status of entry `name`, following a symbolic link only where allowed.
    private func follow(_ name: [UInt8], in folder: OpenFolder, at relative: FilePath) -> FileStatus? {
        guard let status = try? folder.status(of: name, followLinks: false) else { return nil }
        guard status.isSymbolicLink else { return status }
        if !followSymlinks {
            guard let target = try? root.appending(relative).appending(name).resolved(),
                  target == root || target.bytes.starts(with: root.bytes + [UInt8(ascii: "/")]) else { return nil }
        }
        return try? folder.status(of: name, followLinks: true)
    }

    /// Content sniffing: JPEG starts with FF D8.
    private func isPhoto(_ name: [UInt8], in folder: OpenFolder) -> Bool {
        guard let file = try? folder.open(name) else { return false }
        defer { file.close() }
        return (try? file.read(upTo: 2, at: 0)) == [0xFF, 0xD8]
    }
}
