import PhotoSource

/// A file or folder of the mount, named by catalog row ids (stable across remounts).
public enum Node: Hashable, Sendable {
    case root
    case groups
    /// `thumbnails/` or `fullscreen/`: one size of every photo, so a copy or a viewer of one size
    /// stats and renders only that size.
    case view(FileKind)
    /// `groups/<album>/`: a source folder that holds photos (by folder id).
    case album(Int64)
    /// `groups/<album>/thumbnail.jpg`: the thumbnail of the album's first photo that renders.
    case poster(album: Int64)
    /// `thumbnails/<album>/`.
    case viewAlbum(FileKind, album: Int64)
    /// `groups/<album>/<asset>/` (by photo id).
    case asset(Int64)
    /// A file of an asset folder, for one version of its photo (a changed photo is a new file).
    case file(photo: Int64, kind: FileKind, version: Int64)
    /// `thumbnails/<album>/<asset>.jpg`: the same file as the asset folder's `thumbnail.jpg`.
    case viewFile(FileKind, photo: Int64, version: Int64)
    /// `dates/`: the timeline, every photo whose date is known under the day it was taken.
    case dates
    /// `dates/<YYYY>/`.
    case year(Int)
    /// `dates/<YYYY>/<YYYY-MM-DD>/` (by the day as a number, YYYYMMDD).
    case day(Int)
    /// `dates/<YYYY>/<YYYY-MM-DD>/<asset>/` (by photo id): a folder of its own (the kernel
    /// aliases no directories) holding the asset folder's files (the same inodes).
    case datedAsset(Int64)

    public var isDirectory: Bool {
        switch self {
        case .root, .groups, .view, .album, .viewAlbum, .asset, .dates, .year, .day, .datedAsset: return true
        case .poster, .file, .viewFile: return false
        }
    }

    /// Whether it is a rendition (an album's poster, a thumbnail or a fullscreen), whose size may
    /// take a render to know.
    public var isRendition: Bool {
        switch canonical {
        case .poster: return true
        case .file(_, let kind, _): return kind.isRendition
        default: return false
        }
    }

    /// The node a file is known by: a view's file is its asset folder's file.
    public var canonical: Node {
        if case .viewFile(let kind, let photo, let version) = self { return .file(photo: photo, kind: kind, version: version) }
        return self
    }

    /// Its inode number: fixed for the five top folders, else made of the row id, the photo's
    /// version (files only) and the kind, so numbers are stable across remounts and, since row
    /// ids are never reused (AUTOINCREMENT), never given to another node.
    ///
    ///     bits 20-62: row id | bits 4-19: version | bits 2-3: entity | bits 0-1: kind
    ///
    ///     entity 0 (id > 0)  the timeline: kind 0 year (id YYYY), 1 day (id YYYYMMDD), 2 dated asset folder (photo id)
    ///     entity 1           folder id: kind 0 album, 1 poster, 2 thumbnails/ view album, 3 fullscreen/ view album
    ///     entity 2           photo id, kind 0: asset folder
    ///     entity 3           photo id, version and file kind: a file (its views and dates/ share it)
    public var inode: UInt64 {
        switch self {
        case .root: return 1
        case .groups: return 2
        case .view(let kind): return kind == .thumbnail ? 3 : 4
        case .dates: return 5
        case .year(let year): return Self.number(Int64(year), entity: 0, kind: 0)
        case .day(let day): return Self.number(Int64(day), entity: 0, kind: 1)
        case .datedAsset(let id): return Self.number(id, entity: 0, kind: 2)
        case .album(let id): return Self.number(id, entity: 1, kind: 0)
        case .poster(let id): return Self.number(id, entity: 1, kind: 1)
        case .viewAlbum(let kind, let id): return Self.number(id, entity: 1, kind: kind == .thumbnail ? 2 : 3)
        case .asset(let id): return Self.number(id, entity: 2, kind: 0)
        case .file(let id, let kind, let version), .viewFile(let kind, let id, let version):
            return Self.number(id, entity: 3, kind: UInt64(kind.rawValue), version: version)
        }
    }

    /// The node an inode number names, as far as the number tells (the catalog checks the row).
    public init?(inode: UInt64) {
        switch inode {
        case 1: self = .root
        case 2: self = .groups
        case 3: self = .view(.thumbnail)
        case 4: self = .view(.fullscreen)
        case 5: self = .dates
        default:
            let id = Int64(inode >> 20), kind = Int(inode & 3), version = Int64((inode >> 4) & 0xFFFF)
            guard id > 0 else { return nil }
            switch (inode >> 2) & 3 {
            case 0 where version == 0 && kind < 3: self = [.year(Int(id)), .day(Int(id)), .datedAsset(id)][kind]
            case 1: self = [.album(id), .poster(album: id), .viewAlbum(.thumbnail, album: id), .viewAlbum(.fullscreen, album: id)][kind]
            case 2 where kind == 0 && version == 0: self = .asset(id)
            case 3 where kind < FileKind.allCases.count: self = .file(photo: id, kind: FileKind(rawValue: kind)!, version: version)
            default: return nil
            }
        }
    }

    private static func number(_ id: Int64, entity: UInt64, kind: UInt64, version: Int64 = 0) -> UInt64 {
        UInt64(id) << 20 | UInt64(version & 0xFFFF) << 4 | entity << 2 | kind
    }
}

/// The files of an asset folder: two renditions, the original, and for a Motion Photo its video.
public enum FileKind: Int, CaseIterable, Sendable {
    case thumbnail, fullscreen, original
    /// The video beside a still, only in the asset folders of photos that have one
    /// (`CatalogStore.Motion`): `motion.mp4`, the MP4 inside a Motion Photo (a byte range of its
    /// original), or `motion.mov`, a Live Photo's movie.
    case motion

    public var fileName: [UInt8] {
        switch self {
        case .thumbnail: return Array("thumbnail.jpg".utf8)
        case .fullscreen: return Array("fullscreen.jpg".utf8)
        case .original: return Array("original.jpg".utf8)
        case .motion: return Array("motion.mp4".utf8)
        }
    }

    /// Made by the renderer (a size that may take a render to know), not bytes of the source.
    public var isRendition: Bool { self == .thumbnail || self == .fullscreen }

    /// Its name in the asset folder of `photo` (the original keeps its format's extension).
    public func fileName(of photo: Photo) -> [UInt8] { self == .original ? photo.originalFileName : fileName }

    /// The sizes that have a view of their own.
    public static let viewed: [FileKind] = [.thumbnail, .fullscreen]

    public var viewName: [UInt8] { self == .thumbnail ? Array("thumbnails".utf8) : Array("fullscreen".utf8) }
}
