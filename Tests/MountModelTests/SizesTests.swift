import MountModel
import Testing
@testable import Catalog

/// The mount's sizes: thumbnail and fullscreen by default, more named with `-o sizes=`, each with
/// a file in every asset folder, a view, and inode numbers of its own.
@Suite struct SizesTests {
    func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test func namedSizesFollowTheDefaultTwo() throws {
        var sizes = RenditionSizes()
        try sizes.add(parsing: "medium:1024+large:2560")
        #expect(sizes.map(\.name) == ["thumbnail", "fullscreen", "medium", "large"])
        #expect(sizes.map(\.longestSide) == [256, 1920, 1024, 2560])
        #expect(sizes.map { String(decoding: $0.viewName, as: UTF8.self) } == ["thumbnails", "fullscreen", "medium", "large"])
        #expect(sizes.map { String(decoding: $0.fileName, as: UTF8.self) } == ["thumbnail.jpg", "fullscreen.jpg", "medium.jpg", "large.jpg"])
        #expect(sizes.filter(\.isThumbnail).map(\.name) == ["thumbnail"])
        #expect(try RenditionSizes(description: sizes.description) == sizes, "the root's user.assetfs.sizes reads back")
    }

    @Test func sizesThatCannotBeShownAreRefused() {
        func refusal(_ list: String) -> RenditionSizes.SizeError? {
            var sizes = RenditionSizes()
            do { try sizes.add(parsing: list) } catch { return error }
            return nil
        }
        #expect(refusal("Medium:100") == .badName("Medium"))
        #expect(refusal("a/b:100") == .badName("a/b"))
        #expect(refusal("original:100") == .taken("original"))
        #expect(refusal("thumbnails:100") == .taken("thumbnails"))
        #expect(refusal("m:100+m:200") == .taken("m"))
        #expect(refusal("m:8") == .badSide("m", 8))
        #expect(refusal("m") == .badEntry("m"))
        #expect(refusal((1...9).map { "s\($0):100" }.joined(separator: "+")) == .tooMany)
    }

    @Test func aNamedSizeIsInEveryAssetFolderAndHasItsView() throws {
        let catalog = try ScratchCatalog()
        try catalog.apply("A", ["x.jpg"])
        var sizes = RenditionSizes()
        try sizes.add("medium", longestSide: 1024)
        let tree = MountTree(sizes: sizes)
        func names(_ node: Node) -> [String] {
            (catalog.store.read { tree.entries(of: node, after: 0, limit: 100, in: $0) } ?? []).map { String(decoding: $0.name, as: UTF8.self) }
        }
        func child(_ parent: Node, _ name: String) -> Node? { catalog.store.read { tree.child(of: parent, named: bytes(name), in: $0) } }
        #expect(names(.root) == ["groups", "thumbnails", "fullscreen", "dates", "medium", "events", "places", "people", "tags", "favorites", "videos", "ids"])
        let album = try #require(child(.groups, "A"))
        let asset = try #require(child(album, "x"))
        #expect(names(asset) == ["thumbnail.jpg", "fullscreen.jpg", "medium.jpg", "original.jpg"])
        let file = try #require(child(asset, "medium.jpg"))
        guard case .file(let photo, .rendition(2), let version) = file else { Issue.record("medium.jpg is \(file)"); return }
        let view = try #require(child(.root, "medium"))
        let viewAlbum = try #require(child(view, "A"))
        let viewFile = try #require(child(viewAlbum, "x.jpg"))
        #expect(viewFile == .viewFile(size: 2, photo: photo, version: version) && viewFile.inode == file.inode)
        #expect(catalog.store.read { tree.node(forInode: file.inode, in: $0) == file && tree.parent(of: viewAlbum, in: $0) == view })
        // Without the size (a mount with other options), its numbers name nothing.
        #expect(catalog.store.read { catalog.tree.node(forInode: file.inode, in: $0) == nil && catalog.tree.child(of: .root, named: bytes("medium"), in: $0) == nil })
        // A changed album is forgotten in the new view too.
        guard case .album(let id) = album else { return }
        #expect(tree.invalidations(for: [.albumPhotos(id)]).contains(.inode(viewAlbum.inode)))
    }
}
