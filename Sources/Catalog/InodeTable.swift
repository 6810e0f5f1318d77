import Posix

/// Inode numbers derived from each node's path in the mount (64-bit FNV-1a), so the same tree
/// gets the same numbers on every mount, and a photo keeps its numbers when others come and go.
/// A clash (vanishingly rare) moves the later node, in catalog order, to the next free number.
struct InodeTable: Sendable {
    private var byNode: [Node: UInt64] = [:]
    private var byInode: [UInt64: Node] = [:]

    init(albums: [Catalog.Album]) {
        assign(.root, path: [])
        assign(.groups, path: Catalog.groupsName)
        for (a, album) in albums.enumerated() {
            let albumPath = Catalog.groupsName + [0x2F] + album.name
            assign(.album(a), path: albumPath)
            assign(.poster(album: a), path: albumPath + [0x2F] + Naming.poster)
            for (i, name) in album.assetNames.enumerated() {
                let assetPath = albumPath + [0x2F] + name
                assign(.asset(album: a, asset: i), path: assetPath)
                for kind in FileKind.allCases { assign(.file(album: a, asset: i, kind: kind), path: assetPath + [0x2F] + kind.fileName) }
            }
        }
    }

    func inode(of node: Node) -> UInt64 { byNode[node]! }
    func node(forInode inode: UInt64) -> Node? { byInode[inode] }

    private mutating func assign(_ node: Node, path: [UInt8]) {
        var inode = Catalog.rootInode
        if node != .root {
            inode = FNV1a.hash(path) >> 1  // keep clear of the sign bit: some tools print st_ino as signed
            while byInode[inode] != nil || inode <= Catalog.rootInode { inode &+= 1 }
        }
        byNode[node] = inode
        byInode[inode] = node
    }
}
