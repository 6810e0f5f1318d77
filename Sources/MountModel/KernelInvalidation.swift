import Catalog

/// Something the kernel cached that a change made wrong, to be dropped with libfuse's
/// `notify_inval_entry` / `notify_inval_inode` (sent outside request handlers).
public enum Invalidation: Hashable, Sendable {
    case entry(parent: UInt64, name: [UInt8])
    case inode(UInt64)
}

extension MountTree {
    /// What the kernel must forget after `changes`: every name and node of this mount's shape
    /// that shows the rows they touched (each size's view and files included).
    public func invalidations(for changes: [CatalogChange]) -> [Invalidation] {
        var result: Set<Invalidation> = []
        for change in changes { result.formUnion(invalidations(for: change)) }
        return Array(result)
    }

    private func invalidations(for change: CatalogChange) -> [Invalidation] {
        switch change {
        case .albumListed(let name):
            return ([Node.groups] + sizes.map { .view(size: $0.slot) }).flatMap { [.entry(parent: $0.inode, name: name), .inode($0.inode)] }
        case .folderAttributes(let id):
            return albumFolders(id).map { .inode($0.inode) }
        case .albumPhotos(let id):
            return (albumFolders(id) + [.poster(album: id)]).map { .inode($0.inode) }
        case .assetName(let album, let name):
            return [.entry(parent: Node.album(album).inode, name: name)]
                + sizes.map { .entry(parent: Node.viewAlbum(size: $0.slot, album: album).inode, name: MountLayout.viewFileName(name)) }
        case .photo(let id, let version):
            let kinds = sizes.map { FileKind.rendition(size: $0.slot) } + [.original, .motion]
            return [.inode(Node.asset(id).inode)] + kinds.map { .inode(Node.file(photo: id, kind: $0, version: version).inode) }
        case .photoFiles(let id, let originalNames):
            return assetFolderEntries(id, names: assetFileNames + originalNames)
        case .assetFiles(let id, let version, let editedNames):
            // The motion file keeps its number (the photo's) when its movie is another: its size
            // goes too; so do the renditions', made from an edit once paired, and the edit's.
            let kinds = sizes.map { FileKind.rendition(size: $0.slot) } + [.motion, .edited]
            return assetFolderEntries(id, names: assetFileNames + editedNames) + kinds.map { .inode(Node.file(photo: id, kind: $0, version: version).inode) }
        case .viewEntry(let view, let parent, let name):
            let folder: Node = parent == 0 ? .viewTop(view) : .viewFolder(parent)
            return [.entry(parent: folder.inode, name: name), .inode(folder.inode)]
        }
    }

    /// The names an asset folder may show but its original's (which follows the photo's version).
    private var assetFileNames: [[UInt8]] { sizes.map(\.fileName) + MountLayout.motionNames }

    /// An album's folder and its folder in every size's view.
    private func albumFolders(_ id: Int64) -> [Node] {
        [.album(id)] + sizes.map { .viewAlbum(size: $0.slot, album: id) }
    }

    /// Names in a photo's asset folder, and the folder (its members in the views are told by
    /// the catalog: `viewEntry` of each, whose folder the kernel then forgets with what it holds).
    private func assetFolderEntries(_ id: Int64, names: [[UInt8]]) -> [Invalidation] {
        let folder = Node.asset(id)
        return [.inode(folder.inode)] + names.map { .entry(parent: folder.inode, name: $0) }
    }
}
