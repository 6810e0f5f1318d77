import Containers
import Glibc
import Posix

/// One folder of the source tree as read now: its own status, its subfolders and its photos.
public struct FolderListing: Sendable {
    public var status: FileStatus
    /// Visible subfolders (not dot-named), by name.
    public var subfolders: [(name: [UInt8], status: FileStatus)]
    /// In bytewise order of file name.
    public var photos: [Photo]
    /// Files not shown, and why.
    public var skipped: [(name: [UInt8], reason: SkipReason)]
    /// The sidecars among them (`SidecarNames`), with their change time: a changed one re-dates
    /// the folder's photos.
    public var sidecars: [[UInt8]: Int64] = [:]

    public init(status: FileStatus, subfolders: [(name: [UInt8], status: FileStatus)], photos: [Photo],
                skipped: [(name: [UInt8], reason: SkipReason)], sidecars: [[UInt8]: Int64] = [:]) {
        (self.status, self.subfolders, self.photos, self.skipped, self.sidecars) = (status, subfolders, photos, skipped, sidecars)
    }
}

/// Reads one folder of SOURCE, and only that folder: the unit of every scan, so a change costs
/// what it touches. Reads only: files are opened to sniff their first bytes (and an MP4's track
/// list), never written.
/// Links to files are followed only when they stay inside the root, unless `followSymlinks`.
/// Every folder is shown once, under its real path: a link to a folder inside the root (or a
/// bind mount of one) adds nothing, and one leading out (followed only with `followSymlinks`) never leads back to a
/// folder it sits in. The rule is the reader's own, so the first scan, events, verification and
/// `warm` all see one tree, whatever order they read it in.
public struct FolderReader: Sendable {
    public let root: FilePath
    public let followSymlinks: Bool
    /// Whether housekeeping folders are read like any other (`-o show_housekeeping`).
    public let showsHousekeeping: Bool
    private let bindMounts: BindMounts

    public init(root: FilePath, followSymlinks: Bool, showsHousekeeping: Bool = false) {
        self.root = root
        self.followSymlinks = followSymlinks
        self.showsHousekeeping = showsHousekeeping
        bindMounts = BindMounts(root: root)
    }

    /// Folders that NAS systems and operating systems keep beside photos, full of thumbnails and
    /// deleted files: Synology's, QNAP's, Windows', macOS's and fsck's. (Dot-folders are hidden anyway.)
    public static let housekeepingFolders: Set<[UInt8]> = Set([
        "@eaDir", "#recycle", "#snapshot",                                   // Synology
        "@Recycle", "@Recently-Snapshot", ".@__thumb",                       // QNAP
        "$RECYCLE.BIN", "System Volume Information",                         // Windows
        ".Trashes", ".Spotlight-V100", ".fseventsd", ".DocumentRevisions-V100",  // macOS
        "lost+found",
    ].map { Array($0.utf8) })

    /// Reads folder `relative` (empty: the root). `known` maps file names to the identities and
    /// formats of photos sniffed before: a file whose identity is unchanged is not opened again.
    public func read(_ relative: FilePath, known: [[UInt8]: (identity: SourceIdentity, format: SourceFormat)] = [:]) throws(Errno) -> FolderListing {
        let folder = try OpenFolder(root.appending(relative))
        let status = try folder.status()
        let entries = try folder.entries().sorted { $0.name.lexicographicallyPrecedes($1.name) }
        var listing = FolderListing(status: status, subfolders: [], photos: [], skipped: [])
        for entry in entries {
            let childStatus: FileStatus
            switch follow(entry.name, in: folder, at: relative) {
            case .success(let status): childStatus = status
            case .failure(let reason): listing.skipped.append((entry.name, reason)); continue
            }
            let hidden = entry.name.first == UInt8(ascii: ".")
            if childStatus.isDirectory {
                if !showsHousekeeping && Self.housekeepingFolders.contains(entry.name) {
                    listing.skipped.append((entry.name, .housekeeping))
                } else if !hidden {
                    listing.subfolders.append((entry.name, childStatus))
                }
                continue
            }
            if hidden { listing.skipped.append((entry.name, .hidden)); continue }
            guard childStatus.isRegularFile else { listing.skipped.append((entry.name, .special)); continue }
            if SidecarNames.isSidecar(entry.name) {
                listing.skipped.append((entry.name, .sidecar))
                listing.sidecars[entry.name] = childStatus.changeNanoseconds
                continue
            }
            let identity = SourceIdentity(childStatus)
            let format: SourceFormat
            if let before = known[entry.name], before.identity == identity {
                format = before.format
            } else {
                switch sniff(entry.name, in: folder) {
                case .success(let sniffed): format = sniffed
                case .failure(let reason): listing.skipped.append((entry.name, reason)); continue
                }
            }
            listing.photos.append(Photo(
                relativePath: relative.appending(entry.name), fileName: entry.name, identity: identity,
                userID: childStatus.userID, groupID: childStatus.groupID, permissions: childStatus.permissions & 0o444,
                format: format))
        }
        return listing
    }

    /// The status of entry `name`, following a symbolic link only where allowed.
    private func follow(_ name: [UInt8], in folder: borrowing OpenFolder, at relative: FilePath) -> Result<FileStatus, SkipReason> {
        guard let status = try? folder.status(of: name, followLinks: false) else { return .failure(.special) }
        guard status.isSymbolicLink else {
            let isBindOfAnother = status.isDirectory && bindMounts.original(of: root.appending(relative).appending(name)) != nil
            return isBindOfAnother ? .failure(.linkedFolder) : .success(status)
        }
        guard let target = try? root.appending(relative).appending(name).resolved(),
              let targetStatus = try? folder.status(of: name, followLinks: true) else { return .failure(.special) }
        let inside = Self.contains(root, target)
        if targetStatus.isDirectory {
            if inside { return .failure(.linkedFolder) }
            if followSymlinks, realFolders(upTo: relative).contains(where: { Self.contains(target, $0) }) { return .failure(.linkedFolder) }
        }
        return inside || followSymlinks ? .success(targetStatus) : .failure(.special)
    }

    /// Whether `path` is `folder` or inside it.
    static func contains(_ folder: FilePath, _ path: FilePath) -> Bool {
        let slash = UInt8(ascii: "/")
        return path == folder || path.bytes.starts(with: folder.bytes.last == slash ? folder.bytes : folder.bytes + [slash])
    }

    /// The real paths of the root and of each folder from it down to `relative`.
    private func realFolders(upTo relative: FilePath) -> [FilePath] {
        var path = root
        return [root] + relative.components.compactMap { component in
            path = path.appending(component)
            return try? path.resolved()
        }
    }

    /// Content sniffing: the format its first bytes say, or why it is not shown.
    private func sniff(_ name: [UInt8], in folder: borrowing OpenFolder) -> Result<SourceFormat, SkipReason> {
        guard let file = try? folder.open(name) else { return .failure(.unreadable) }
        guard let head = try? file.read(upTo: SourceFormat.headLength, at: 0) else { return .failure(.unreadable) }
        guard let format = SourceFormat.sniff(head, fileName: name) else { return .failure(.notAPhoto) }
        // Tracks are listed by their box headers (a few reads); a movie without them is opened later.
        if format.isISOMedia, let handlers = ISOBaseMediaFile.trackHandlers(of: file.descriptor), handlers.contains("soun"), !handlers.contains("vide") {
            return .failure(.audioOnly)
        }
        return .success(format)
    }
}
