import Catalog

extension MountTree {
    /// Up to `limit` entries of folder `node` after `cookie` (0: from the start), in a stable order:
    /// a page of a big folder costs a page, not the folder. Nil for a file.
    public func entries(of node: Node, after cookie: Int64, limit: Int, in catalog: borrowing CatalogSnapshot) -> [Entry]? {
        switch node {
        case .root:
            // groups, the views, dates (cookies 1, 2…, and 4 for dates where it always was), ids last.
            let views = sizes.all.map { Entry(name: $0.viewName, node: .view(size: $0.slot), cookie: $0.slot < 2 ? Int64($0.slot + 2) : Int64($0.slot + 3)) }
            let all = [Entry(name: MountLayout.groups, node: .groups, cookie: 1)] + views.prefix(2)
                + [Entry(name: MountLayout.dates, node: .dates, cookie: 4)] + views.dropFirst(2)
                + [Entry(name: MountLayout.ids, node: .ids, cookie: Int64(RenditionSizes.maximumCount + 4))]
            return all.filter { $0.cookie > cookie }
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
        case .dates:
            return catalog.years(after: Int(max(0, cookie)), limit: limit).map { Entry(name: MountLayout.yearName($0), node: .year($0), cookie: Int64($0)) }
        case .year(let year):
            return catalog.days(inYear: year, after: Int(max(0, cookie)), limit: limit).map {
                Entry(name: MountLayout.dayName($0), node: .day($0), cookie: Int64($0))
            }
        case .day(let day):
            return catalog.datedPhotos(onDay: day, after: cookie, limit: limit).map { Entry(name: $0.name, node: .datedAsset($0.id), cookie: $0.id) }
        case .asset(let id), .datedAsset(let id):
            guard let row = catalog.photo(id) else { return [] }
            return files(of: row, in: catalog).enumerated().map { index, file in
                Entry(name: file.name, node: .file(photo: id, kind: file.kind, version: Node.shownVersion(row.version)), cookie: Int64(index + 1))
            }.filter { $0.cookie > cookie }
        case .ids:
            return []  // every id is found by its name, none listed (`Node.ids`)
        case .poster, .file, .viewFile, .idLink:
            return nil
        }
    }

    /// The files of a photo's asset folder, in listing order: the sizes, the original, and
    /// `motion.mp4` or `motion.mov` only once its properties say it has a motion.
    public func files(of row: CatalogStore.PhotoRow, in catalog: borrowing CatalogSnapshot) -> [(kind: FileKind, name: [UInt8])] {
        sizes.all.map { (FileKind.rendition(size: $0.slot), $0.fileName) } + [(.original, row.photo.originalFileName)]
            + (catalog.motion(of: row).map { [(.motion, MountLayout.motionName($0))] } ?? [])
    }
}
