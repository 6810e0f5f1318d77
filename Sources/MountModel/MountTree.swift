import Catalog
import PhotoSource

/// The virtual tree over the catalog's rows: `groups/<album>/<asset>/{<size>.jpg,original.*}`, a
/// view per size (`thumbnails/<album>/<asset>.jpg`, `fullscreen/…`, any named size's) of the same
/// files, the views (`dates/<YYYY>/<YYYY-MM-DD>/<asset>/`, `tags/…`: `CatalogView`) whose
/// member asset folders hold the same files, and `ids/<id>`, links to asset folders by content id.
/// Every name is resolved here and only here; the catalog answers with rows, read through the
/// snapshot each function is given (`in catalog`): the caller decides which reads share one state.
public struct MountTree: Sendable {
    public let sizes: RenditionSizes
    /// The views shown (`-o views=`).
    public let views: Set<CatalogView>

    public init(sizes: RenditionSizes, views: Set<CatalogView> = Set(CatalogView.allCases)) {
        self.sizes = sizes
        self.views = views
    }

    /// One entry of a folder listing, with the cookie that continues the listing after it.
    public struct Entry: Sendable, Equatable {
        public var name: [UInt8]
        public var node: Node
        public var cookie: Int64
    }

    /// The node an inode number names, if it still exists. A file of a photo's earlier version
    /// resolves while that version is remembered (`retiredPhoto`).
    public func node(forInode inode: UInt64, in catalog: borrowing CatalogSnapshot) -> Node? {
        guard let node = Node(inode: inode), shows(node) else { return nil }
        switch node {
        case .root, .groups, .view, .ids: return node
        case .viewTop(let view): return views.contains(view) ? node : nil
        case .idLink(let id):
            return catalog.photo(id) == nil ? nil : node
        case .album(let id), .poster(let id), .viewAlbum(_, let id):
            return (catalog.folder(id)?.photoCount ?? 0) > 0 ? node : nil
        case .asset(let id):
            return catalog.photo(id) == nil ? nil : node
        case .viewFolder(let id):
            return catalog.viewFolder(id).map { views.contains($0.view) } == true ? node : nil
        case .member(let id):
            return catalog.viewMember(id).map { views.contains($0.folder.view) } == true ? node : nil
        case .file(let id, _, let version), .viewFile(_, let id, let version):
            guard let row = catalog.photo(id) else { return nil }
            return Node.shownVersion(row.version) == version || catalog.retiredPhoto(id, version: version) != nil ? node : nil
        }
    }

    /// Whether the node's size, if it has one, is one this mount shows.
    private func shows(_ node: Node) -> Bool {
        switch node.canonical {
        case .view(let size), .viewAlbum(let size, _), .file(_, .rendition(let size), _): return sizes[size] != nil
        default: return true
        }
    }

    /// The photo a file or asset folder shows: its current row, or the remembered row of an earlier version.
    public func photo(for node: Node, in catalog: borrowing CatalogSnapshot) -> CatalogStore.PhotoRow? {
        switch node.canonical {
        case .asset(let id), .idLink(let id): return catalog.photo(id)
        case .member(let id): return catalog.viewMember(id)?.photo
        case .file(let id, _, let version):
            guard let row = catalog.photo(id) else { return nil }
            return Node.shownVersion(row.version) == version ? row : catalog.retiredPhoto(id, version: version)
        default: return nil
        }
    }

    /// The folder that holds folder `node` (the root holds itself); nil for a file, whose parent
    /// is ambiguous (a view's file has two). For `..` lookups when exported over NFS.
    public func parent(of node: Node, in catalog: borrowing CatalogSnapshot) -> Node? {
        switch node {
        case .root, .groups, .view, .viewTop, .ids: return .root
        case .viewFolder(let id): return catalog.viewFolder(id).map { $0.parent == 0 ? .viewTop($0.view) : .viewFolder($0.parent) }
        case .member(let id): return catalog.viewMember(id).map { $0.folder.id == 0 ? .viewTop($0.folder.view) : .viewFolder($0.folder.id) }
        case .album: return .groups
        case .viewAlbum(let size, _): return .view(size: size)
        case .asset(let id): return catalog.photo(id).map { .album($0.folder) }
        case .poster, .file, .viewFile, .idLink: return nil
        }
    }

    /// What the link `ids/<id>` of photo `id` points to, relative to `ids/`: its asset folder in groups/.
    public func linkTarget(ofPhoto id: Int64, in catalog: borrowing CatalogSnapshot) -> [UInt8]? {
        guard let row = catalog.photo(id), let album = catalog.folder(row.folder)?.albumName else { return nil }
        return MountLayout.idLinkTarget(album: album, asset: row.assetName)
    }

    /// The child called `name` of folder `parent`.
    public func child(of parent: Node, named name: [UInt8], in catalog: borrowing CatalogSnapshot) -> Node? {
        switch parent {
        case .root:
            if name == MountLayout.groups { return .groups }
            if let view = MountLayout.view(named: name) { return views.contains(view) ? .viewTop(view) : nil }
            if name == MountLayout.ids { return .ids }
            return sizes.size(viewNamed: name).map { .view(size: $0.slot) }
        case .groups:
            return catalog.album(named: name).map { .album($0.id) }
        case .view(let size):
            return catalog.album(named: name).map { .viewAlbum(size: size, album: $0.id) }
        case .album(let id):
            if name == MountLayout.poster { return (catalog.folder(id)?.photoCount ?? 0) > 0 ? .poster(album: id) : nil }
            return catalog.photo(inFolder: id, named: name).map { .asset($0.id) }
        case .viewAlbum(let size, let id):
            return catalog.photo(inFolder: id, fittedName: name, suffix: MountLayout.viewFileSuffix).map {
                .viewFile(size: size, photo: $0.id, version: Node.shownVersion($0.version))
            }
        case .viewTop(let view):
            return catalog.viewEntry(in: .top(view), named: name).map(Self.node)
        case .viewFolder(let id):
            return catalog.viewEntry(in: .folder(id), named: name).map(Self.node)
        case .asset, .member:
            guard let row = photo(for: parent, in: catalog) else { return nil }
            let id = row.id
            let version = Node.shownVersion(row.version)
            if let size = sizes.size(fileNamed: name) { return .file(photo: id, kind: .rendition(size: size.slot), version: version) }
            if name == row.photo.originalFileName { return .file(photo: id, kind: .original, version: version) }
            if name.starts(with: MountLayout.editedPrefix) {
                return catalog.edit(of: row).flatMap { $0.photo.editedFileName == name ? .file(photo: id, kind: .edited, version: version) : nil }
            }
            // The motion file's name needs the photo's properties: asked for only when looked up.
            guard MountLayout.motionNames.contains(name), let motion = catalog.motion(of: row), MountLayout.motionName(motion) == name else { return nil }
            return .file(photo: id, kind: .motion, version: version)
        case .ids:
            return ContentID(text: name).flatMap { catalog.photo(withContentID: $0) }.map { .idLink($0) }
        case .poster, .file, .viewFile, .idLink:
            return nil
        }
    }

    /// The node of an entry of a view's folder.
    static func node(_ entry: CatalogStore.ViewEntry) -> Node {
        switch entry {
        case .folder(let row): return .viewFolder(row.id)
        case .member(let row): return .member(row.id)
        }
    }
}
