import Catalog

/// A file or folder of the mount, named by catalog row ids (stable across remounts) and, for a
/// size's files and views, the size's slot in the mount's `RenditionSizes`.
public enum Node: Hashable, Sendable {
    case root
    case groups
    /// `thumbnails/`, `fullscreen/`, or a named size's view: one size of every photo, so a copy or
    /// a viewer of one size stats and renders only that size.
    case view(size: Int)
    /// `groups/<album>/`: a source folder that holds photos (by folder id).
    case album(Int64)
    /// `groups/<album>/thumbnail.jpg`: the thumbnail of the album's first photo that renders.
    case poster(album: Int64)
    /// `thumbnails/<album>/` (or another size's view of the album).
    case viewAlbum(size: Int, album: Int64)
    /// `groups/<album>/<asset>/` (by photo id).
    case asset(Int64)
    /// A file of an asset folder, for one version of its photo (a changed photo is a new file).
    case file(photo: Int64, kind: FileKind, version: Int64)
    /// `thumbnails/<album>/<asset>.jpg`: the same file as the asset folder's `thumbnail.jpg`.
    case viewFile(size: Int, photo: Int64, version: Int64)
    /// A view's top folder: `dates/`, `events/`, `places/`, `people/`, `tags/`, `favorites/`, `videos/`.
    case viewTop(CatalogView)
    /// A folder of a view (by view_folders id): `dates/2024/`, `tags/Travel/Norway/`.
    case viewFolder(Int64)
    /// A member asset folder of a view (by view_members id): a folder of its own (the kernel
    /// aliases no directories) holding its photo's asset folder's files (the same inodes).
    case member(Int64)
    /// `ids/`: asset folders by content id. It lists nothing: a listing of every id (a million
    /// names) serves no one, and every id is found by its name.
    case ids
    /// `ids/<id>`: a symbolic link to the asset folder in `groups/` of the photo with that content
    /// id (of copies, the photo of lowest id), made when it is read: it follows renames and moves.
    case idLink(Int64)

    public var isDirectory: Bool {
        switch self {
        case .root, .groups, .view, .album, .viewAlbum, .asset, .viewTop, .viewFolder, .member, .ids: return true
        case .poster, .file, .viewFile, .idLink: return false
        }
    }

    public var isSymbolicLink: Bool {
        if case .idLink = self { return true }
        return false
    }

    /// Whether it is a rendition (an album's poster or a size of a photo), whose size may take a
    /// render to know.
    public var isRendition: Bool {
        switch canonical {
        case .poster, .file(_, .rendition, _): return true
        default: return false
        }
    }

    /// The node a file is known by: a view's file is its asset folder's file.
    public var canonical: Node {
        if case .viewFile(let size, let photo, let version) = self { return .file(photo: photo, kind: .rendition(size: size), version: version) }
        return self
    }

    /// Whether it shows no photo of its own: the root, the size views' and the views' top folders
    /// (every user may reach them; the rest is checked against SOURCE, a view's folder by the
    /// photos it holds).
    public var showsNoPhoto: Bool {
        switch self {
        case .root, .groups, .view, .viewTop, .ids: return true
        case .album, .viewAlbum, .poster, .asset, .viewFolder, .member, .file, .viewFile, .idLink: return false
        }
    }

    /// Whether it is an asset folder: in its album, or a view's member.
    public var isAssetFolder: Bool {
        switch self {
        case .asset, .member: return true
        default: return false
        }
    }

    /// The photo an asset folder of its album shows; nil for any other node (a view's member
    /// needs its row read: `MountTree.photo(for:)`).
    public var assetPhoto: Int64? {
        if case .asset(let photo) = self { return photo }
        return nil
    }

    /// The part of a photo's version its files' inode numbers carry: a changed photo's files are
    /// new numbers, and an old one is found again while its version is remembered.
    public static func shownVersion(_ version: Int64) -> Int64 { version & 0xFFFF }
}

/// The files of an asset folder: one per size, the original, and for a photo that has one
/// (`CatalogStore.Motion`) its motion file.
public enum FileKind: Hashable, Sendable {
    /// The size in slot `size` of the mount's `RenditionSizes`.
    case rendition(size: Int)
    case original
    case motion
    /// The edit an original is paired with (`CatalogStore+Edits.swift`), byte-exact.
    case edited
}
