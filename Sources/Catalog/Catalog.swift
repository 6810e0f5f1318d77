import PhotoSource
import Posix

/// The virtual tree `groups/<album>/<asset>/{thumbnail,fullscreen,original}.jpg`, with the views
/// `thumbnails/<album>/<asset>.jpg` and `fullscreen/<album>/<asset>.jpg` of the same files, over
/// one `PhotoLibrary`: names, stable inode numbers and parent/child links. Immutable and free of
/// I/O; a rescan builds a new one.
public final class Catalog: Sendable {
    public struct Album: Sendable {
        public let name: [UInt8]
        public let source: PhotoAlbum
        public let assetNames: [[UInt8]]
        let assetIndex: [[UInt8]: Int]
    }

    public let library: PhotoLibrary
    public let albums: [Album]
    private let albumIndex: [[UInt8]: Int]
    private let inodes: InodeTable

    public static let rootInode: UInt64 = 1
    public static let groupsName = Array("groups".utf8)
    static let jpegExtension = Array(".jpg".utf8)

    public init(library: PhotoLibrary) {
        self.library = library
        let rootName = library.root.lastComponent.isEmpty || library.root.bytes == [UInt8(ascii: "/")] ? Array("root".utf8) : library.root.lastComponent
        let rawNames = library.albums.map { album in
            Naming.albumName(components: album.relativePath.isEmpty ? [rootName] : album.relativePath.components)
        }
        let names = Naming.deduplicated(rawNames)
        albums = zip(names, library.albums).map { name, album in
            let assetNames = Naming.deduplicated(Naming.assetNames(fileNames: album.photos.map(\.fileName)), reserved: [Naming.poster])
            return Album(name: name, source: album, assetNames: assetNames,
                         assetIndex: Dictionary(uniqueKeysWithValues: assetNames.enumerated().map { ($1, $0) }))
        }
        albumIndex = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0) })
        inodes = InodeTable(albums: albums)
    }

    public func photo(album: Int, asset: Int) -> Photo { albums[album].source.photos[asset] }

    /// A view's file shares its number with the asset folder's file: one file, two names.
    public func inode(of node: Node) -> UInt64 { inodes.inode(of: node.canonical) }
    public func node(forInode inode: UInt64) -> Node? { inodes.node(forInode: inode) }

    /// The child called `name` of folder `parent`.
    public func child(of parent: Node, named name: [UInt8]) -> Node? {
        switch parent {
        case .root:
            if name == Self.groupsName { return .groups }
            return FileKind.viewed.first { $0.viewName == name }.map { .view($0) }
        case .groups:
            return albumIndex[name].map { .album($0) }
        case .view(let kind):
            return albumIndex[name].map { .viewAlbum(kind, album: $0) }
        case .viewAlbum(let kind, let a):
            guard name.count > Self.jpegExtension.count, name.suffix(Self.jpegExtension.count).elementsEqual(Self.jpegExtension) else { return nil }
            return albums[a].assetIndex[Array(name.dropLast(Self.jpegExtension.count))].map { .viewFile(kind, album: a, asset: $0) }
        case .album(let a):
            if name == Naming.poster { return .poster(album: a) }
            return albums[a].assetIndex[name].map { .asset(album: a, asset: $0) }
        case .asset(let a, let i):
            return FileKind.allCases.first { $0.fileName == name }.map { .file(album: a, asset: i, kind: $0) }
        case .poster, .file, .viewFile:
            return nil
        }
    }

    /// The entries of folder `node`, in a stable order; nil for a file.
    public func children(of node: Node) -> [(name: [UInt8], node: Node)]? {
        switch node {
        case .root:
            return [(Self.groupsName, .groups)] + FileKind.viewed.map { ($0.viewName, .view($0)) }
        case .groups:
            return albums.enumerated().map { ($1.name, .album($0)) }
        case .view(let kind):
            return albums.enumerated().map { ($1.name, .viewAlbum(kind, album: $0)) }
        case .viewAlbum(let kind, let a):
            return albums[a].assetNames.enumerated().map { ($1 + Self.jpegExtension, .viewFile(kind, album: a, asset: $0)) }
        case .album(let a):
            return [(Naming.poster, .poster(album: a))] + albums[a].assetNames.enumerated().map { ($1, .asset(album: a, asset: $0)) }
        case .asset(let a, let i):
            return FileKind.allCases.map { ($0.fileName, .file(album: a, asset: i, kind: $0)) }
        case .poster, .file, .viewFile:
            return nil
        }
    }

    /// The folder that holds folder `node` (the root holds itself); nil for a file, whose
    /// parent is ambiguous (a view's file has two). For `..` lookups when exported over NFS.
    public func parent(of node: Node) -> Node? {
        switch node {
        case .root, .groups, .view: return .root
        case .album: return .groups
        case .viewAlbum(let kind, _): return .view(kind)
        case .asset(let a, _): return .album(a)
        case .poster, .file, .viewFile: return nil
        }
    }

    /// The path of `node` inside the mount, for logs and for inode numbering.
    public func path(of node: Node) -> [UInt8] {
        let slash = UInt8(ascii: "/")
        switch node {
        case .root: return []
        case .groups: return Self.groupsName
        case .album(let a): return Self.groupsName + [slash] + albums[a].name
        case .poster(let a): return path(of: .album(a)) + [slash] + Naming.poster
        case .asset(let a, let i): return path(of: .album(a)) + [slash] + albums[a].assetNames[i]
        case .file(let a, let i, let kind): return path(of: .asset(album: a, asset: i)) + [slash] + kind.fileName
        case .view(let kind): return kind.viewName
        case .viewAlbum(let kind, let a): return kind.viewName + [slash] + albums[a].name
        case .viewFile(let kind, let a, let i): return path(of: .viewAlbum(kind, album: a)) + [slash] + albums[a].assetNames[i] + Self.jpegExtension
        }
    }
}
