import MountModel
import Testing

/// Inode numbers: every node a mount shows round-trips through its number, no two share one, and
/// the numbers of the default sizes are those earlier releases gave (NFS handles stay valid).
@Suite struct InodeTests {
    static let nodes: [Node] = [.root, .groups, .view(size: 0), .view(size: 1), .view(size: 2), .view(size: 9),
                                .viewTop(.dates), .viewTop(.events), .viewTop(.videos), .viewFolder(2024), .viewFolder(1 << 38),
                                .member(7), .member(1 << 38),
                                .album(3), .poster(album: 3), .viewAlbum(size: 0, album: 3), .viewAlbum(size: 1, album: 3),
                                .viewAlbum(size: 2, album: 3), .viewAlbum(size: 9, album: 3), .asset(5),
                                .file(photo: 5, kind: .rendition(size: 0), version: 1), .file(photo: 5, kind: .rendition(size: 1), version: 1),
                                .file(photo: 5, kind: .rendition(size: 2), version: 1), .file(photo: 5, kind: .rendition(size: 9), version: 0xFFFF),
                                .file(photo: (1 << 39) - 1, kind: .rendition(size: 3), version: 2),
                                .file(photo: 5, kind: .original, version: 1), .file(photo: 5, kind: .motion, version: 1),
                                .file(photo: 5, kind: .edited, version: 1), .file(photo: (1 << 39) - 1, kind: .edited, version: 0xFFFF)]

    @Test func everyNodeRoundTrips() {
        for node in Self.nodes { #expect(Node(inode: node.inode) == node, "\(node)") }
        #expect(Set(Self.nodes.map(\.inode)).count == Self.nodes.count, "no two nodes share a number")
    }

    @Test func aViewFileIsItsAssetFoldersFile() {
        for size in [0, 1, 2, 5] {
            let view = Node.viewFile(size: size, photo: 5, version: 3)
            #expect(view.inode == Node.file(photo: 5, kind: .rendition(size: size), version: 3).inode)
            #expect(view.isRendition && view.canonical == .file(photo: 5, kind: .rendition(size: size), version: 3))
        }
    }

    /// The numbers of 0.x mounts, before sizes could be named: unchanged.
    @Test func theDefaultSizesKeepTheirNumbers() {
        #expect(Node.view(size: 0).inode == 3 && Node.view(size: 1).inode == 4 && Node.viewTop(.dates).inode == 5)
        #expect(Node.file(photo: 1, kind: .rendition(size: 0), version: 0).inode == 1 << 20 | 3 << 2 | 0)
        #expect(Node.file(photo: 1, kind: .rendition(size: 1), version: 0).inode == 1 << 20 | 3 << 2 | 1)
        #expect(Node.file(photo: 1, kind: .original, version: 2).inode == 1 << 20 | 2 << 4 | 3 << 2 | 2)
        #expect(Node.viewAlbum(size: 0, album: 1).inode == 1 << 20 | 1 << 2 | 2)
        #expect(Node.viewAlbum(size: 1, album: 1).inode == 1 << 20 | 1 << 2 | 3)
    }

    @Test func numbersThatNameNothingAreRefused() {
        #expect(Node(inode: 0) == nil)
        #expect(Node(inode: 1 << 20 | 1 << 4 | 1 << 2 | 2) == nil, "slot 1's view album is kind 3, not kind 2 with slot 1")
        #expect(Node(inode: 1 << 20 | 1 << 4 | 2 << 2 | 0) == nil, "an asset folder has no version")
        #expect(Node(inode: 1 << 20 | 0 << 2 | 3) == nil, "a named size's file has a slot of 2 or more")
        #expect(Node(inode: 1 << 20 | 0 << 2 | 0) == nil, "dates/ is 5")
        #expect(Node(inode: 9 << 20 | 0 << 2 | 0) == nil, "no view of number 8")
    }
}
