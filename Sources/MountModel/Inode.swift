import Catalog

/// Inode numbers: fixed for the top folders, else made of the row id, the photo's version (files
/// only), the kind and for a named size its slot, so numbers are stable across remounts and,
/// since row ids are never reused (AUTOINCREMENT), never given to another node.
///
///     bits 20-62: row id | bits 4-19: version | bits 2-3: entity | bits 0-1: kind
///
///     1 root, 2 groups/, 3 thumbnails/, 4 fullscreen/, 5 dates/, 4 + slot: a named size's view
///     entity 0 (id > 0)  the views: kind 0 a view's top folder but dates/ (id: the view's number + 1),
///                        1 view folder (view_folders id), 2 member (view_members id); kind 3 a
///                        named size's file: photo id in bits 20-58, the size's slot in bits 59-62
///     entity 1           folder id: kind 0 album, 1 poster, 2 a size's view of the album (the
///                        slot in bits 4-19: 0 thumbnails/, 2 and up named), 3 fullscreen/'s
///     entity 2           photo id, kind 0: asset folder, kind 1: its link in ids/; kind 2 (id 1): ids/;
///                        kind 3 (and version): its `edited.*` file
///     entity 3           photo id, version and kind: a file (0 thumbnail, 1 fullscreen, 2 original,
///                        3 motion), which its views and dates/ share
extension Node {
    public var inode: UInt64 {
        switch self {
        case .root: return 1
        case .groups: return 2
        case .view(let size): return size < 2 ? 3 + UInt64(size) : 4 + UInt64(size)
        case .viewTop(.dates): return 5
        case .viewTop(let view): return Self.number(Int64(view.rawValue) + 1, entity: 0, kind: 0)
        case .viewFolder(let id): return Self.number(id, entity: 0, kind: 1)
        case .member(let id): return Self.number(id, entity: 0, kind: 2)
        case .album(let id): return Self.number(id, entity: 1, kind: 0)
        case .poster(let id): return Self.number(id, entity: 1, kind: 1)
        case .viewAlbum(let size, let id):
            return size == 1 ? Self.number(id, entity: 1, kind: 3) : Self.number(id, entity: 1, kind: 2, version: Int64(size))
        case .asset(let id): return Self.number(id, entity: 2, kind: 0)
        case .ids: return Self.number(1, entity: 2, kind: 2)
        case .idLink(let id): return Self.number(id, entity: 2, kind: 1)
        case .file(let id, let kind, let version):
            switch kind {
            case .rendition(let size) where size >= 2:
                return Self.number(id, entity: 0, kind: 3, version: version) | UInt64(size) << Self.slotShift
            case .rendition(let size): return Self.number(id, entity: 3, kind: UInt64(size), version: version)
            case .original: return Self.number(id, entity: 3, kind: 2, version: version)
            case .motion: return Self.number(id, entity: 3, kind: 3, version: version)
            case .edited: return Self.number(id, entity: 2, kind: 3, version: version)
            }
        case .viewFile(let size, let id, let version):
            return Node.file(photo: id, kind: .rendition(size: size), version: version).inode
        }
    }

    /// The node an inode number names, as far as the number tells (the tree checks the rows, and
    /// that a size's slot is one the mount shows).
    public init?(inode: UInt64) {
        switch inode {
        case 1: self = .root
        case 2: self = .groups
        case 3, 4: self = .view(size: Int(inode) - 3)
        case 5: self = .viewTop(.dates)
        case 6..<(4 + UInt64(RenditionSizes.maximumCount)): self = .view(size: Int(inode) - 4)
        default:
            let id = Int64(inode >> 20), kind = Int(inode & 3), version = Int64((inode >> 4) & 0xFFFF)
            guard id > 0 else { return nil }
            switch (inode >> 2) & 3 {
            case 0 where kind == 3:
                let size = Int(inode >> Self.slotShift)
                guard size >= 2 else { return nil }
                self = .file(photo: id & Self.slotIDMask, kind: .rendition(size: size), version: version)
            case 0 where version == 0 && kind == 0:
                guard let view = CatalogView(rawValue: Int(id) - 1), view != .dates else { return nil }
                self = .viewTop(view)
            case 0 where version == 0: self = kind == 1 ? .viewFolder(id) : .member(id)
            case 1 where kind == 2 && version != 1: self = .viewAlbum(size: Int(version), album: id)
            case 1 where version == 0 && kind == 0: self = .album(id)
            case 1 where version == 0 && kind == 1: self = .poster(album: id)
            case 1 where version == 0 && kind == 3: self = .viewAlbum(size: 1, album: id)
            case 2 where kind == 0 && version == 0: self = .asset(id)
            case 2 where kind == 1 && version == 0: self = .idLink(id)
            case 2 where kind == 2 && version == 0 && id == 1: self = .ids
            case 2 where kind == 3: self = .file(photo: id, kind: .edited, version: version)
            case 3: self = .file(photo: id, kind: [.rendition(size: 0), .rendition(size: 1), .original, .motion][kind], version: version)
            default: return nil
            }
        }
    }

    /// A named size's file keeps its slot in the id's top bits (photo ids stay far below 2^39).
    private static let slotShift: UInt64 = 59
    private static let slotIDMask: Int64 = (1 << 39) - 1

    private static func number(_ id: Int64, entity: UInt64, kind: UInt64, version: Int64 = 0) -> UInt64 {
        UInt64(id) << 20 | UInt64(shownVersion(version)) << 4 | entity << 2 | kind
    }
}
