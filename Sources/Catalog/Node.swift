/// A file or folder of the mount, by position in the catalog.
public enum Node: Hashable, Sendable {
    case root
    case groups
    case album(Int)
    /// `groups/<album>/thumbnail.jpg`: the thumbnail of the album's first asset.
    case poster(album: Int)
    case asset(album: Int, asset: Int)
    case file(album: Int, asset: Int, kind: FileKind)

    public var isDirectory: Bool {
        switch self {
        case .root, .groups, .album, .asset: return true
        case .poster, .file: return false
        }
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
}
