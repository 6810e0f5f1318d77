/// A file or folder of the mount, by position in the catalog.
public enum Node: Hashable, Sendable {
    case root
    case groups
    case album(Int)
    /// `groups/<album>/thumbnail.jpg`: the thumbnail of the album's first asset.
    case poster(album: Int)
    case asset(album: Int, asset: Int)
    case file(album: Int, asset: Int, kind: FileKind)
    /// `thumbnails/` or `fullscreen/`: one size of every photo, so a copy or a viewer of one size
    /// stats and renders only that size.
    case view(FileKind)
    /// `thumbnails/<album>/`.
    case viewAlbum(FileKind, album: Int)
    /// `thumbnails/<album>/<asset>.jpg`: the same file as `groups/<album>/<asset>/thumbnail.jpg`.
    case viewFile(FileKind, album: Int, asset: Int)

    public var isDirectory: Bool {
        switch self {
        case .root, .groups, .album, .asset, .view, .viewAlbum: return true
        case .poster, .file, .viewFile: return false
        }
    }

    /// The node a file is known by: a view's file is its asset folder's file.
    public var canonical: Node {
        if case .viewFile(let kind, let a, let i) = self { return .file(album: a, asset: i, kind: kind) }
        return self
    }
}

/// The three files of an asset folder.
public enum FileKind: Int, CaseIterable, Sendable {
    case thumbnail, fullscreen, original

    public var fileName: [UInt8] {
        switch self {
        case .thumbnail: return Array("thumbnail.jpg".utf8)
        case .fullscreen: return Array("fullscreen.jpg".utf8)
        case .original: return Array("original.jpg".utf8)
        }
    }

    /// The sizes that have a view of their own, and its folder name.
    public static let viewed: [FileKind] = [.thumbnail, .fullscreen]

    public var viewName: [UInt8] { self == .thumbnail ? Array("thumbnails".utf8) : Array("fullscreen".utf8) }
}
