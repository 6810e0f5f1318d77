import PhotoSource

/// Inode numbers derived from each node's path in the mount (64-bit FNV-1a), so the same tree
/// gets the same numbers on every mount, and a photo keeps its numbers when others come and go.
/// A file's number also covers its source's identity: a new version of a photo is a new file to
/// the kernel, so a reader in the middle of the old one keeps reading the old one (or fails),
/// never a mix. A clash (vanishingly rare) moves the later node, in catalog order, to the next
/// free number.
struct InodeTable: Sendable {
    private var byNode: [Node: UInt64] = [:]
    private var byInode: [UInt64: Node] = [:]

    init(albums: [Catalog.Album]) {
        assign(.root, path: [])
        assign(.groups, path: Catalog.groupsName)
        for kind in FileKind.viewed {
            assign(.view(kind), path: kind.viewName)
            for (a, album) in albums.enumerated() { assign(.viewAlbum(kind, album: a), path: kind.viewName + [0x2F] + album.name) }
        }
        for (a, album) in albums.enumerated() {
            let albumPath = Catalog.groupsName + [0x2F] + album.name
            assign(.album(a), path: albumPath)
            // The poster shows the first photo that renders: any photo of the album may decide it.
            assign(.poster(album: a), path: albumPath + [0x2F] + Naming.poster + album.source.photos.flatMap(Self.version))
            for (i, name) in album.assetNames.enumerated() {
                let assetPath = albumPath + [0x2F] + name
                let version = Self.version(album.source.photos[i])
                assign(.asset(album: a, asset: i), path: assetPath)
                for kind in FileKind.allCases { assign(.file(album: a, asset: i, kind: kind), path: assetPath + [0x2F] + kind.fileName + version) }
            }
        }
    }

    func inode(of node: Node) -> UInt64 { byNode[node]! }
    func node(forInode inode: UInt64) -> Node? { byInode[inode] }

    private mutating func assign(_ node: Node, path: [UInt8]) {
        var inode = Catalog.rootInode
        if node != .root {
            inode = Self.hash(path)
            while byInode[inode] != nil || inode <= Catalog.rootInode { inode &+= 1 }
        }
        byNode[node] = inode
        byInode[inode] = node
    }

    private static func version(_ photo: Photo) -> [UInt8] { [0] + Array(photo.identity.text.utf8) }

    static func hash(_ bytes: [UInt8]) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { h = (h ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return h >> 1  // keep clear of the sign bit: some tools print st_ino as signed
    }
}
