import PhotoSource

/// The virtual tree over the stored rows: `groups/<album>/<asset>/{thumbnail,fullscreen,original}.jpg`,
/// with the views `thumbnails/<album>/<asset>.jpg` and `fullscreen/<album>/<asset>.jpg` of the same files,
/// and the timeline `dates/<YYYY>/<YYYY-MM-DD>/<asset>/` of the same files (`CatalogStore+Properties.swift`).
extension CatalogStore {
    public static let groupsName = Array("groups".utf8)

    /// One entry of a folder listing, with the cookie that continues the listing after it.
    public struct Entry: Sendable, Equatable {
        public var name: [UInt8]
        public var node: Node
        public var cookie: Int64
    }

    /// The node an inode number names, if it still exists. A file of a photo's earlier version
    /// resolves while that version is remembered (`retiredPhoto`).
    public func node(forInode inode: UInt64) -> Node? {
        guard let node = Node(inode: inode) else { return nil }
        switch node {
        case .root, .groups, .view, .dates: return node
        case .album(let id), .poster(let id), .viewAlbum(_, let id):
            return (folder(id)?.photoCount ?? 0) > 0 ? node : nil
        case .asset(let id):
            return photo(id) == nil ? nil : node
        case .year(let year):
            return years(after: year - 1, limit: 1).first == year ? node : nil
        case .day(let day):
            return days(inYear: day / 10000, after: day - 1, limit: 1).first == day ? node : nil
        case .datedAsset(let id):
            return self.day(ofPhoto: id) == nil ? nil : node
        case .file(let id, _, let version), .viewFile(_, let id, let version):
            guard let row = photo(id) else { return nil }
            return row.version & 0xFFFF == version || retiredPhoto(id, version: version) != nil ? node : nil
        }
    }

    /// The photo a file node shows: its current row, or the remembered row of an earlier version.
    public func photo(for node: Node) -> PhotoRow? {
        switch node.canonical {
        case .asset(let id), .datedAsset(let id): return photo(id)
        case .file(let id, _, let version):
            guard let row = photo(id) else { return nil }
            return row.version & 0xFFFF == version ? row : retiredPhoto(id, version: version)
        default: return nil
        }
    }

    /// The folder that holds folder `node` (the root holds itself); nil for a file, whose parent
    /// is ambiguous (a view's file has two). For `..` lookups when exported over NFS.
    public func parent(of node: Node) -> Node? {
        switch node {
        case .root, .groups, .view, .dates: return .root
        case .year: return .dates
        case .day(let day): return .year(day / 10000)
        case .datedAsset(let id): return self.day(ofPhoto: id).map { .day($0) }
        case .album: return .groups
        case .viewAlbum(let kind, _): return .view(kind)
        case .asset(let id): return photo(id).map { .album($0.folder) }
        case .poster, .file, .viewFile: return nil
        }
    }

    /// The child called `name` of folder `parent`.
    public func child(of parent: Node, named name: [UInt8]) -> Node? {
        switch parent {
        case .root:
            if name == Self.groupsName { return .groups }
            if name == Self.datesName { return .dates }
            return FileKind.viewed.first { $0.viewName == name }.map { .view($0) }
        case .groups:
            return album(named: name).map { .album($0.id) }
        case .view(let kind):
            return album(named: name).map { .viewAlbum(kind, album: $0.id) }
        case .album(let id):
            if name == Naming.poster { return (folder(id)?.photoCount ?? 0) > 0 ? .poster(album: id) : nil }
            return photo(inFolder: id, named: name).map { .asset($0.id) }
        case .viewAlbum(let kind, let id):
            return photo(inFolder: id, viewFileNamed: name).map { .viewFile(kind, photo: $0.id, version: $0.version & 0xFFFF) }
        case .dates:
            return Self.year(named: name).flatMap { year in years(after: year - 1, limit: 1).first == year ? .year(year) : nil }
        case .year(let year):
            return Self.day(named: name, inYear: year).flatMap { day in days(inYear: year, after: day - 1, limit: 1).first == day ? .day(day) : nil }
        case .day(let day):
            return datedPhoto(onDay: day, named: name).map { .datedAsset($0) }
        case .asset(let id), .datedAsset(let id):
            guard let row = photo(id) else { return nil }
            // The motion file's name needs the photo's properties: asked for only when looked up.
            let kind = FileKind.allCases.first { $0 != .motion && $0.fileName(of: row.photo) == name }
                ?? (CatalogStore.Motion.fileNames.contains(name) && motion(of: row)?.fileName == name ? .motion : nil)
            return kind.map { .file(photo: id, kind: $0, version: row.version & 0xFFFF) }
        case .poster, .file, .viewFile:
            return nil
        }
    }

    /// Up to `limit` entries of folder `node` after `cookie` (0: from the start), in a stable order:
    /// a page of a big folder costs a page, not the folder. Nil for a file.
    public func entries(of node: Node, after cookie: Int64, limit: Int) -> [Entry]? {
        switch node {
        case .root:
            let all = [Entry(name: Self.groupsName, node: .groups, cookie: 1)]
                + FileKind.viewed.enumerated().map { Entry(name: $1.viewName, node: .view($1), cookie: Int64($0 + 2)) }
                + [Entry(name: Self.datesName, node: .dates, cookie: 4)]
            return all.filter { $0.cookie > cookie }
        case .groups, .view:
            return albums(after: cookie, limit: limit).map { folder in
                Entry(name: folder.albumName ?? [], node: node == .groups ? .album(folder.id) : .viewAlbum(Self.viewKind(node), album: folder.id),
                      cookie: folder.id)
            }
        case .album(let id):
            // The poster first (cookie 1), then the photos (cookie: id + 1).
            let poster = cookie < 1 ? [Entry(name: Naming.poster, node: .poster(album: id), cookie: 1)] : []
            return poster + photos(inFolder: id, after: max(0, cookie - 1), limit: limit).map {
                Entry(name: $0.assetName, node: .asset($0.id), cookie: $0.id + 1)
            }
        case .viewAlbum(let kind, let id):
            return photos(inFolder: id, after: cookie, limit: limit).map {
                Entry(name: Naming.viewFileName($0.assetName), node: .viewFile(kind, photo: $0.id, version: $0.version & 0xFFFF), cookie: $0.id)
            }
        case .dates:
            return years(after: Int(max(0, cookie)), limit: limit).map { Entry(name: Self.yearName($0), node: .year($0), cookie: Int64($0)) }
        case .year(let year):
            return days(inYear: year, after: Int(max(0, cookie)), limit: limit).map { Entry(name: Self.dayName($0), node: .day($0), cookie: Int64($0)) }
        case .day(let day):
            return datedPhotos(onDay: day, after: cookie, limit: limit).map { Entry(name: $0.name, node: .datedAsset($0.id), cookie: $0.id) }
        case .asset(let id), .datedAsset(let id):
            guard let row = photo(id) else { return [] }
            return files(of: row).map {
                Entry(name: $0.name, node: .file(photo: id, kind: $0.kind, version: row.version & 0xFFFF), cookie: Int64($0.kind.rawValue + 1))
            }.filter { $0.cookie > cookie }
        case .poster, .file, .viewFile:
            return nil
        }
    }

    /// The files of a photo's asset folder, by name: `motion.mp4` or `motion.mov` only once its
    /// properties say it has a motion (`motion(of:)`).
    func files(of row: PhotoRow) -> [(kind: FileKind, name: [UInt8])] {
        FileKind.allCases.compactMap { kind in
            guard kind == .motion else { return (kind, kind.fileName(of: row.photo)) }
            return motion(of: row).map { (kind, $0.fileName) }
        }
    }

    private static func viewKind(_ node: Node) -> FileKind {
        if case .view(let kind) = node { return kind }
        return .thumbnail
    }
}
