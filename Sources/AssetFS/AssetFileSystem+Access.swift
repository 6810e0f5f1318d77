import Catalog
import MountModel
import Glibc
import Posix

/// The one gate between a request and the tree: every node a request names passes `resolve`, so
/// a view (`dates/`, `tags/`, `thumbnails/`, a poster, an attribute, any later one) is a new path
/// to a photo, never a new right. Another user reaches a node only if they could read what it shows in
/// SOURCE themselves (`SourceAccess`); root and the user serving the mount reach everything.
extension AssetFileSystem {
    /// The node `inode` names, if `caller` may reach it.
    func resolve(_ inode: UInt64, as caller: Credentials, in catalog: borrowing CatalogSnapshot) -> Result<Node, Errno> {
        guard let node = tree.node(forInode: inode, in: catalog) else { return .failure(.notFound) }
        return permits(node, as: caller, in: catalog) ? .success(node) : .failure(.permissionDenied)
    }

    /// The folder `inode` names, for a request that reads inside it (a lookup of a name in it, a
    /// listing), if `caller` may reach it. For a caller who reaches everything its existence is
    /// not read first: what the request finds in it tells. Others are checked as always.
    func resolve(folder inode: UInt64, as caller: Credentials, in catalog: borrowing CatalogSnapshot) -> Result<Node, Errno> {
        guard caller.reachesAllThisProcessReaches, let node = Node(inode: inode) else { return resolve(inode, as: caller, in: catalog) }
        return node.isDirectory ? .success(node) : .failure(.notDirectory)
    }

    /// The entry `name` of folder `parent`, if `caller` may reach it.
    func resolve(child name: [UInt8], of parent: Node, as caller: Credentials, in catalog: borrowing CatalogSnapshot) -> Result<Node, Errno> {
        guard parent.isDirectory else { return .failure(.notDirectory) }
        guard let node = tree.child(of: parent, named: name, in: catalog) else { return .failure(.notFound) }
        return permits(node, as: caller, in: catalog) ? .success(node) : .failure(.permissionDenied)
    }

    /// Whether `caller` could read what `node` shows: for an album (and its views and poster
    /// folder), list its folder; for anything of a photo, open the photo; for a view's folder,
    /// open one of the photos in it or below (its name, a place or a person, says something of
    /// them). The views' top folders show no photo. An album's poster is further checked against the photo
    /// it shows before that photo is rendered for them (`settleFirst`).
    func permits(_ node: Node, as caller: Credentials, in catalog: borrowing CatalogSnapshot) -> Bool {
        if caller.reachesAllThisProcessReaches || node.showsNoPhoto { return true }
        switch node {
        case .album(let id), .viewAlbum(_, let id), .poster(let id):
            guard let folder = catalog.folder(id) else { return false }
            return access.mayList(folderAt: folder.relativePath, by: caller)
        case .viewFolder(let id):
            return holdsReadablePhoto(viewFolder: id, as: caller, in: catalog)
        default:
            guard let row = tree.photo(for: node, in: catalog), access.mayRead(photoAt: row.photo.relativePath, by: caller) else { return false }
            // A file made from another (a Live Photo's motion.mov is its movie, an original's
            // renditions and edited.* its edit): the caller must be able to read that too.
            guard case .file(_, let kind, _) = node.canonical, let shown = source(kind, of: row, in: catalog)?.row.photo,
                  shown.relativePath != row.photo.relativePath else { return true }
            return access.mayRead(photoAt: shown.relativePath, by: caller)
        }
    }
}

extension AssetFileSystem {
    /// Whether view folder `id` or a folder below it has a member `caller` may read, looked for
    /// a page at a time (it stops at the first).
    private func holdsReadablePhoto(viewFolder id: Int64, as caller: Credentials, in catalog: borrowing CatalogSnapshot) -> Bool {
        var after: Int64 = 0
        while true {
            let page = catalog.photos(underViewFolder: id, after: after, limit: 256)
            for member in page where mayReadWhole(member.photo, as: caller, in: catalog) { return true }
            guard let last = page.last, page.count == 256 else { return false }
            after = last.member
        }
    }

    /// What `caller` may know of photo `row`'s properties (its attributes): of a Live Photo's
    /// still, what its movie lent it (a place, a UTC offset) only if they may read the movie too.
    func properties(of row: CatalogStore.PhotoRow, as caller: Credentials, in catalog: borrowing CatalogSnapshot) -> CatalogStore.Properties {
        let properties = properties(of: row, in: catalog)
        guard !properties.lentByMovie.isEmpty, !caller.reachesAllThisProcessReaches, !mayReadWhole(row, as: caller, in: catalog) else { return properties }
        return properties.withoutWhatItsMovieLent
    }

    /// Whether `caller` may read photo `row` and, of a Live Photo, its movie too: the still may
    /// have taken its place from the movie, and a folder named by it must not show it to them.
    private func mayReadWhole(_ row: CatalogStore.PhotoRow, as caller: Credentials, in catalog: borrowing CatalogSnapshot) -> Bool {
        guard access.mayRead(photoAt: row.photo.relativePath, by: caller) else { return false }
        guard case .movie(let movie)? = catalog.motion(of: row) else { return true }
        return access.mayRead(photoAt: movie.photo.relativePath, by: caller)
    }
}

extension AssetFileSystem {
    /// What access(2) of `inode` by `caller` answers (nil: granted) where the kernel leaves the
    /// check to the daemon: nothing is writable, files are not executable.
    public func access(_ inode: UInt64, _ wanted: Int32, as caller: Credentials) -> Errno? {
        if wanted & W_OK != 0 { return .readOnlyFileSystem }
        switch request({ resolve(inode, as: caller, in: $0) }) {
        case .failure(let error): return error
        case .success(let node): return wanted & X_OK != 0 && !node.isDirectory ? .permissionDenied : nil
        }
    }

    /// Whether every user may reach `inode` (the root, a view's or the timeline's own folders):
    /// the kernel may then keep its entry for all; any other is looked up again by each user who
    /// walks to it, when other users can reach the mount.
    public static func isReachableByEveryone(_ inode: UInt64) -> Bool {
        Node(inode: inode)?.showsNoPhoto ?? false
    }
}
