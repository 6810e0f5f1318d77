import Catalog

extension MountTree {
    /// Up to `limit` entries of folder `node` after `cookie` (0: from the start), in a stable order:
    /// a page of a big folder costs a page, not the folder. Nil for a file.
    public func entries(of node: Node, after cookie: Int64, limit: Int, in catalog: borrowing CatalogSnapshot) -> [Entry]? {
        switch node {
        case .root:
            return topEntries.filter { $0.cookie > cookie }
        case .groups, .view:
            return catalog.albums(after: cookie, limit: limit).map { folder in
                let child: Node = if case .view(let size) = node { .viewAlbum(size: size, album: folder.id) } else { .album(folder.id) }
                return Entry(name: folder.albumName ?? [], node: child, cookie: folder.id)
            }
        case .album(let id):
            // The poster first (cookie 1), then the photos (cookie: id + 1).
            let poster = cookie < 1 ? [Entry(name: MountLayout.poster, node: .poster(album: id), cookie: 1)] : []
            return poster + catalog.photos(inFolder: id, after: max(0, cookie - 1), limit: limit).map {
                Entry(name: $0.assetName, node: .asset($0.id), cookie: $0.id + 1)
            }
        case .viewAlbum(let size, let id):
            return catalog.photos(inFolder: id, after: cookie, limit: limit).map {
                Entry(name: MountLayout.viewFileName($0.assetName), node: .viewFile(size: size, photo: $0.id, version: Node.shownVersion($0.version)),
                      cookie: $0.id)
            }
        case .viewTop(let view):
            return viewEntries(of: .top(view), after: cookie, limit: limit, in: catalog)
        case .viewFolder(let id):
            return viewEntries(of: .folder(id), after: cookie, limit: limit, in: catalog)
        case .asset, .member:
            guard let row = photo(for: node, in: catalog) else { return [] }
            return files(of: row, in: catalog).enumerated().map { index, file in
                Entry(name: file.name, node: .file(photo: row.id, kind: file.kind, version: Node.shownVersion(row.version)), cookie: Int64(index + 1))
            }.filter { $0.cookie > cookie }
        case .ids:
            return []  // every id is found by its name, none listed (`Node.ids`)
        case .poster, .file, .viewFile, .idLink:
            return nil
        }
    }

    /// The root's folders: groups, the size views and the views shown (cookies 1, 2…: 4 for dates
    /// where it always was, 20 and up for the other views).
    public var topEntries: [Entry] {
        let sizeViews = sizes.all.map { Entry(name: $0.viewName, node: .view(size: $0.slot), cookie: $0.slot < 2 ? Int64($0.slot + 2) : Int64($0.slot + 3)) }
        let shownViews = CatalogView.allCases.filter(views.contains).map {
            Entry(name: Array(MountLayout.viewName($0).utf8), node: .viewTop($0), cookie: $0 == .dates ? 4 : 20 + Int64($0.rawValue))
        }
        // ids/ last, after the views' cookies (20 + the view's number).
        let ids = Entry(name: MountLayout.ids, node: .ids, cookie: 40)
        return ([Entry(name: MountLayout.groups, node: .groups, cookie: 1)] + sizeViews + shownViews + [ids]).sorted { $0.cookie < $1.cookie }
    }

    private func viewEntries(of folder: CatalogStore.ViewParent, after cookie: Int64, limit: Int, in catalog: borrowing CatalogSnapshot) -> [Entry] {
        catalog.viewEntries(of: folder, after: cookie, limit: limit).map { Entry(name: $0.name, node: Self.node($0), cookie: $0.cookie) }
    }

    /// The files of a photo's asset folder, in listing order: the sizes, the original, its edit
    /// once paired, and `motion.mp4` or `motion.mov` only once its properties say it has a motion.
    public func files(of row: CatalogStore.PhotoRow, in catalog: borrowing CatalogSnapshot) -> [(kind: FileKind, name: [UInt8])] {
        sizes.all.map { (FileKind.rendition(size: $0.slot), $0.fileName) } + [(.original, row.photo.originalFileName)]
            + (catalog.edit(of: row).map { [(.edited, $0.photo.editedFileName)] } ?? [])
            + (catalog.motion(of: row).map { [(.motion, MountLayout.motionName($0))] } ?? [])
    }
}
