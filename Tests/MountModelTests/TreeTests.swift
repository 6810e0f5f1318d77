import Glibc
import Posix
import MountModel
import Testing
@testable import Catalog
@testable import PhotoSource

func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

/// A catalog in a scratch file, fed folder listings made up in the test (no SOURCE on disk).
final class ScratchCatalog {
    let folder: FilePath
    private(set) var store: CatalogStore
    private var nextInode: UInt64 = 100

    /// In `parent`: /dev/shm for a test that makes many (a catalog's first write waits for the disk).
    init(rootName: String = "Pictures", parent: String = "/tmp") throws {
        var template = Array("\(parent)/assetfs-catalog-XXXXXX".utf8CString)
        folder = FilePath(String(cString: mkdtemp(&template)!))
        store = try CatalogStore(path: folder.appending(Array("catalog.sqlite".utf8)), source: FilePath("/photos/\(rootName)"),
                                 reservedAssetNames: MountLayout.reservedAssetNames)
    }
    deinit { _ = system("rm -rf '\(folder)'") }

    /// The mount's tree over it, with the default sizes.
    var tree: MountTree { MountTree(sizes: RenditionSizes()) }

    /// What the kernel must forget after `update`.
    func invalidations(_ update: FolderUpdate) -> [Invalidation] { tree.invalidations(for: update.changes) }

    func reopen() throws {
        store = try CatalogStore(path: store.path, source: FilePath(bytes: Array("/photos/".utf8) + store.rootName),
                                 reservedAssetNames: MountLayout.reservedAssetNames)
    }

    /// Applies folder `path` holding `files` (each a photo) and `subfolders`.
    @discardableResult
    func apply(_ path: String, _ files: [String], subfolders: [String] = [], size: Int64 = 10, permissions: UInt32 = 0o755) throws -> FolderUpdate {
        let relative = FilePath(path)
        let photos = files.sorted().map { name -> Photo in
            nextInode += 1
            return Photo(relativePath: relative.appending(Array(name.utf8)), fileName: Array(name.utf8),
                         identity: SourceIdentity(inode: UInt64(name.hashValue & 0xFFFF), size: size, modificationNanoseconds: 5, changeNanoseconds: 5),
                         userID: 0, groupID: 0, permissions: 0o444, format: Self.format(ofFile: name))
        }
        let status = FileStatus(device: 1, inode: nextInode, mode: 0o40000 | permissions, userID: 0, groupID: 0, size: 4096,
                                modificationNanoseconds: 0, changeNanoseconds: 0)
        let listing = FolderListing(status: status, subfolders: subfolders.map { (Array($0.utf8), status) }, photos: photos, skipped: [])
        return try store.apply(listing, at: relative, inheritedPermissions: 0o555)
    }

    /// The format a file of this name is sniffed as (the kinds these tests use).
    static func format(ofFile name: String) -> SourceFormat {
        switch name.split(separator: ".").last?.lowercased() {
        case "mov": .quickTime
        case "heic": .heif
        case "mp4": .mp4
        case "png": .png
        default: .jpeg
        }
    }

    func names(_ node: Node) -> [String] { store.read { names(node, in: $0) } }

    func names(_ node: Node, in catalog: borrowing CatalogSnapshot) -> [String] {
        (tree.entries(of: node, after: 0, limit: 10_000, in: catalog) ?? []).map { text($0.name) }
    }

    func node(_ path: String) -> Node? {
        store.read { catalog in
            var node = Node.root
            for name in path.split(separator: "/") {
                guard let child = tree.child(of: node, named: Array(name.utf8), in: catalog) else { return nil }
                node = child
            }
            return node
        }
    }
}

@Suite struct CatalogTests {
    @Test func albumNamesFlattenPathsAndResolveCollisions() throws {
        let catalog = try ScratchCatalog()
        try catalog.apply("", ["a.jpg"], subfolders: ["Pictures", "2023", "x／y"])
        try catalog.apply("Pictures", ["b.jpg"])
        try catalog.apply("2023", [], subfolders: ["Trip"])
        try catalog.apply("2023/Trip", ["c.jpg"])
        try catalog.apply("x／y", ["d.jpg"])
        #expect(catalog.names(.groups) == ["Pictures", "Pictures (2)", "2023／Trip", "x‛／y"])
        #expect(catalog.store.read { $0.counts } == CatalogStore.Counts(albums: 4, photos: 4, skipped: 0))
    }

    @Test func aLiteralFullwidthSolidusCannotImpersonateANestedFolder() throws {
        let catalog = try ScratchCatalog()
        try catalog.apply("a", [], subfolders: ["b"])
        try catalog.apply("a/b", ["1.jpg"])
        try catalog.apply("a／b", ["2.jpg"])
        #expect(Set(catalog.names(.groups)).count == 2)
    }

    @Test func noAssetCanTakeThePostersName() throws {
        let catalog = try ScratchCatalog()
        try catalog.apply("A", ["thumbnail.jpg", "thumbnail.jpeg"])
        let names = catalog.names(try #require(catalog.node("groups/A")))
        #expect(names.filter { $0 == "thumbnail.jpg" }.count == 1)  // the poster only
        #expect(names.count == 3)
    }

    @Test func treeLinksAreConsistent() throws {
        let catalog = try ScratchCatalog()
        try catalog.apply("A", ["x.jpg", "y.jpg"])
        let album = try #require(catalog.node("groups/A"))
        #expect(catalog.names(album) == ["thumbnail.jpg", "x", "y"])
        let asset = try #require(catalog.node("groups/A/y"))
        #expect(catalog.names(asset) == ["thumbnail.jpg", "fullscreen.jpg", "original.jpg"])
        let original = try #require(catalog.node("groups/A/y/original.jpg"))
        #expect(catalog.store.read { catalog.tree.node(forInode: original.inode, in: $0) } == original)
        #expect(catalog.store.read { catalog.tree.node(forInode: 1, in: $0) } == .root)
        #expect(catalog.node("groups/A/y/other.jpg") == nil)
        // The views: the same files under other names.
        #expect(catalog.names(.root) == ["groups", "thumbnails", "fullscreen", "dates", "events", "places", "people", "tags", "favorites", "videos", "ids"])
        #expect(catalog.names(try #require(catalog.node("thumbnails/A"))) == ["x.jpg", "y.jpg"])
        #expect(catalog.node("thumbnails/A/y.jpg")?.canonical.inode == catalog.node("groups/A/y/thumbnail.jpg")?.inode)
        #expect(catalog.node("fullscreen/A/y.jpg")?.canonical.inode == catalog.node("groups/A/y/fullscreen.jpg")?.inode)
    }

    @Test func namesAndInodeNumbersStayWhenNeighboursComeAndGo() throws {
        let catalog = try ScratchCatalog()
        try catalog.apply("A", ["IMG_1.jpg", "x.jpg"])
        let before = try #require(catalog.node("groups/A/IMG_1"))
        let file = try #require(catalog.node("groups/A/IMG_1/thumbnail.jpg"))
        // A neighbour whose stem clashes arrives: both are named as a scan of the folder afresh
        // names them (by their full names), the photo keeps its node, and the kernel is told.
        let update = try catalog.apply("A", ["IMG_1.jpg", "IMG_1.png", "x.jpg"])
        #expect(catalog.names(try #require(catalog.node("groups/A"))) == ["thumbnail.jpg", "IMG_1.jpg", "x", "IMG_1.png"])
        #expect(catalog.node("groups/A/IMG_1.jpg") == before && catalog.node("groups/A/IMG_1") == nil)
        #expect(catalog.invalidations(update).contains(.entry(parent: try #require(catalog.node("groups/A")).inode, name: Array("IMG_1".utf8))))
        // It leaves: the stem is IMG_1.jpg's again.
        try catalog.apply("A", ["IMG_1.jpg", "x.jpg"])
        #expect(catalog.node("groups/A/IMG_1") == before)
        try catalog.apply("A", ["IMG_1.jpg"])
        try catalog.apply("B", ["z.jpg"])
        try catalog.reopen()  // a remount
        #expect(catalog.node("groups/A/IMG_1") == before)
        #expect(catalog.node("groups/A/IMG_1/thumbnail.jpg")?.inode == file.inode)
        // Numbers are never given to another node: a photo removed and added again is new.
        try catalog.apply("A", [])
        try catalog.apply("A", ["IMG_1.jpg"])
        #expect(catalog.node("groups/A/IMG_1")?.inode != before.inode)
    }

    /// Reads inside a snapshot see one state of the catalog (a listing and its entries'
    /// attributes are answered from it), even while a change commits beside them.
    @Test func readsInASnapshotSeeOneStateOfTheCatalog() throws {
        let catalog = try ScratchCatalog()
        try catalog.apply("A", ["x.jpg"])
        let album = try #require(catalog.node("groups/A"))
        let seen = try catalog.store.read { (snapshot) throws -> ([String], [String]) in
            let before = catalog.names(album, in: snapshot)
            try catalog.apply("A", ["x.jpg", "y.jpg"])  // committed by the writer meanwhile
            return (before, catalog.names(album, in: snapshot))
        }
        #expect(seen.0 == ["thumbnail.jpg", "x"] && seen.1 == seen.0, "one state inside: \(seen)")
        #expect(catalog.names(album) == ["thumbnail.jpg", "x", "y"], "the change after it, in a snapshot of its own")
    }

    @Test func aChangedPhotoIsANewVersionAndTheOldOneStaysReadable() throws {
        let catalog = try ScratchCatalog()
        try catalog.apply("A", ["x.jpg"])
        let old = try #require(catalog.node("groups/A/x/fullscreen.jpg"))
        let update = try catalog.apply("A", ["x.jpg"], size: 99)
        let new = try #require(catalog.node("groups/A/x/fullscreen.jpg"))
        #expect(new.inode != old.inode)
        #expect(catalog.invalidations(update).contains(.inode(old.inode)))
        #expect(catalog.invalidations(update).contains(.entry(parent: try #require(catalog.node("groups/A/x")).inode, name: Array("fullscreen.jpg".utf8))))
        #expect(catalog.store.read { catalog.tree.node(forInode: old.inode, in: $0) } == old)
        #expect(catalog.store.read { catalog.tree.photo(for: old, in: $0) }?.photo.identity.size == 10)
        #expect(catalog.store.read { catalog.tree.photo(for: new, in: $0) }?.photo.identity.size == 99)
    }

    @Test func aFolderGoneTakesItsSubtreeAndAlbums() throws {
        let catalog = try ScratchCatalog()
        try catalog.apply("", [], subfolders: ["A"])
        try catalog.apply("A", ["a.jpg"], subfolders: ["B"])
        try catalog.apply("A/B", ["b.jpg"])
        let update = try catalog.apply("", [], subfolders: [])
        #expect(catalog.names(.groups).isEmpty)
        #expect(catalog.invalidations(update).contains(.entry(parent: Node.groups.inode, name: Array("A／B".utf8))))
        #expect(catalog.store.read { $0.folder(at: FilePath("A/B")) } == nil)
    }

    @Test func bigFoldersAreListedInPages() throws {
        let catalog = try ScratchCatalog()
        try catalog.apply("A", (0..<250).map { String(format: "p%03d.jpg", $0) })
        let album = try #require(catalog.node("groups/A"))
        var names: [String] = [], cookie: Int64 = 0
        while let page = catalog.store.read({ catalog.tree.entries(of: album, after: cookie, limit: 64, in: $0) }), let last = page.last {
            #expect(page.count <= 65)
            names += page.map { text($0.name) }
            cookie = last.cookie
        }
        #expect(names == ["thumbnail.jpg"] + (0..<250).map { String(format: "p%03d", $0) })
    }

    /// `..` of every folder is the folder listing it (what NFS asks when it reconnects a handle).
    @Test func everyFolderKnowsItsParent() throws {
        let catalog = try ScratchCatalog()
        try catalog.apply("2023", [], subfolders: ["Trip"])
        try catalog.apply("2023/Trip", ["c.jpg", "d.jpg"])
        try catalog.apply("Garden", ["e.jpg"])
        #expect(catalog.store.read { catalog.tree.parent(of: .root, in: $0) } == .root)
        #expect(catalog.store.read { catalog.tree.parent(of: .groups, in: $0) } == .root)
        for album in ["2023／Trip", "Garden"] {
            let node = try #require(catalog.node("groups/\(album)"))
            #expect(catalog.store.read { catalog.tree.parent(of: node, in: $0) } == .groups)
            for asset in catalog.names(node).dropFirst() {
                let assetNode = try #require(catalog.node("groups/\(album)/\(asset)"))
                #expect(catalog.store.read { catalog.tree.parent(of: assetNode, in: $0) } == node)
            }
            let view = try #require(catalog.node("thumbnails/\(album)"))
            #expect(catalog.store.read { catalog.tree.parent(of: view, in: $0) } == .view(size: 0))
        }
        let original = try #require(catalog.node("groups/Garden/e/original.jpg"))
        #expect(catalog.store.read { catalog.tree.parent(of: original, in: $0) } == nil)
    }

    /// A catalog opened for another SOURCE (one `-o cache=` for two) starts afresh, never shows the other tree.
    @Test func aCatalogOfAnotherSourceStartsAfresh() throws {
        let catalog = try ScratchCatalog()
        try catalog.apply("A", ["x.jpg"])
        let other = try CatalogStore(path: catalog.store.path, source: FilePath("/elsewhere/Other"), reservedAssetNames: MountLayout.reservedAssetNames)
        #expect(other.read { MountTree(sizes: RenditionSizes()).entries(of: .groups, after: 0, limit: 10, in: $0) }?.isEmpty == true)
        #expect(!other.read { $0.isComplete })
        #expect(other.rootName == Array("Other".utf8))
    }
}
