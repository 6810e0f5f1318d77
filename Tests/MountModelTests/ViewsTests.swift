import Places
import MountModel
import Posix
import SQLiteDatabase
import Testing
@testable import Catalog
@testable import PhotoSource

extension ScratchCatalog {
    /// Records `properties` for each photo (by file name) of the current version, read or not.
    @discardableResult
    func record(_ properties: [String: CatalogStore.Properties], in album: String) throws -> [Invalidation] {
        let folder = try #require(store.read { $0.folder(at: FilePath(album)) })
        let rows = store.read { $0.photos(inFolder: folder.id, after: 0, limit: 10_000) }
        let batch = rows.compactMap { row in properties[text(row.photo.fileName)].map { (photo: row, properties: $0) } }
        return tree.invalidations(for: try store.record(batch))
    }

    /// The names of the folder at `path`, nil if there is none.
    func names(_ path: String) -> [String]? { node(path).map { names($0) } }

    // The tree's answers, each from a snapshot of its own.
    func parent(_ node: Node) -> Node? { store.read { tree.parent(of: node, in: $0) } }
    func photo(_ node: Node) -> CatalogStore.PhotoRow? { store.read { tree.photo(for: node, in: $0) } }
    func node(forInode inode: UInt64) -> Node? { store.read { tree.node(forInode: inode, in: $0) } }
    func viewFolder(_ id: Int64) -> CatalogStore.ViewFolderRow? { store.read { $0.viewFolder(id) } }
}

/// The views but dates/ (TimelineTests) on the one machinery: membership from properties, diffed
/// when they change, folders that go with their last member, hidden halves in nothing.
@Suite struct ViewsTests {
    static func properties(day: Int = 20230901, _ change: (inout CatalogStore.Properties) -> Void = { _ in }) -> CatalogStore.Properties {
        var properties = CatalogStore.Properties(date: "d", dateSource: .exifOriginal, day: day)
        change(&properties)
        return properties
    }

    @Test func everyViewShowsItsMembersWithTheAssetFoldersFiles() throws {
        let catalog = try ScratchCatalog()
        try catalog.apply("Trip", ["a.jpg", "b.jpg", "clip.mp4"])
        try catalog.record(["a.jpg": Self.properties {
                                $0.rating = 5; $0.keywords = [["Travel", "Norway"]]; $0.people = ["Anna"]
                                $0.place = Place(country: "Norway", region: "Vestland", city: "Bergen")
                            },
                            "b.jpg": Self.properties { $0.keywords = [["Travel"]]; $0.people = ["Anna", "Bo"] },
                            "clip.mp4": Self.properties(day: 20220101) { $0.favorite = true }], in: "Trip")
        #expect(catalog.names("favorites") == ["a", "clip"])
        #expect(catalog.names("videos") == ["2022"] && catalog.names("videos/2022") == ["clip"])
        #expect(catalog.names("tags") == ["Travel"])
        #expect(catalog.names("tags/Travel") == ["Norway", "b"], "subfolders first, then members")
        #expect(catalog.names("tags/Travel/Norway") == ["a"])
        #expect(catalog.names("people") == ["Anna", "Bo"] && catalog.names("people/Anna") == ["a", "b"])
        #expect(catalog.names("places/Norway/Vestland/Bergen") == ["a"])
        #expect(catalog.names("events") == [], "events are clustered elsewhere")
        // A member is a folder of its own holding the asset folder's files.
        let member = try #require(catalog.node("people/Anna/a"))
        #expect(catalog.node("people/Anna/a/original.jpg") == catalog.node("groups/Trip/a/original.jpg"))
        #expect(catalog.parent(member) == catalog.node("people/Anna"))
        #expect(catalog.parent(try #require(catalog.node("favorites/a"))) == .viewTop(.favorites))
        #expect(catalog.names(.root) == ["groups", "thumbnails", "fullscreen", "dates", "events", "places", "people", "tags", "favorites", "videos", "ids"])
    }

    /// A new rating or new keywords read again (an edited `.xmp`): only what changed is written,
    /// the kernel told, and a folder left empty goes (up the chain).
    @Test func changedPropertiesMoveThePhotoBetweenFolders() throws {
        let catalog = try ScratchCatalog()
        try catalog.apply("A", ["a.jpg"])
        try catalog.record(["a.jpg": Self.properties { $0.rating = 5; $0.keywords = [["x", "y"]] }], in: "A")
        let member = try #require(catalog.node("dates/2023/2023-09-01/a"))
        let x = try #require(catalog.node("tags/x"))
        let changes = try catalog.record(["a.jpg": Self.properties { $0.rating = 2; $0.keywords = [["x", "z"]] }], in: "A")
        #expect(catalog.names("favorites") == [])
        #expect(changes.contains(.entry(parent: Node.viewTop(.favorites).inode, name: Array("a".utf8))))
        #expect(catalog.names("tags/x") == ["z"], "y went with its last member, z came")
        #expect(changes.contains(.entry(parent: x.inode, name: Array("y".utf8))) && changes.contains(.entry(parent: x.inode, name: Array("z".utf8))))
        #expect(catalog.node("dates/2023/2023-09-01/a") == member, "what did not change keeps its member (and inode)")
        #expect(catalog.node("tags/x") == x)
        try catalog.record(["a.jpg": Self.properties()], in: "A")
        #expect(catalog.names("tags") == [] && catalog.node(forInode: x.inode) == nil)
    }

    /// A member's name is its asset name, made unique in its folder beside other members and subfolders.
    @Test func membersAreNamedUniquelyBesideFoldersAndFollowRenames() throws {
        let catalog = try ScratchCatalog()
        try catalog.apply("A", ["x.jpg"])
        try catalog.apply("B", ["x.jpg", "y.jpg"])
        try catalog.record(["x.jpg": Self.properties { $0.keywords = [["y", "deeper"]] }], in: "A")
        try catalog.record(["x.jpg": Self.properties { $0.keywords = [["y"]] }, "y.jpg": Self.properties { $0.keywords = [["y"]] }], in: "B")
        #expect(catalog.names("tags/y") == ["deeper", "x", "y"])
        #expect(catalog.names("dates/2023/2023-09-01") == ["x", "x (2)", "y"])
        // B's x.jpg is joined by an x.png: both take their file names, in every view too.
        try catalog.apply("B", ["x.jpg", "x.png", "y.jpg"])
        #expect(catalog.names("tags/y")?.sorted() == ["deeper", "x.jpg", "y"])
        #expect(catalog.names("dates/2023/2023-09-01")?.sorted() == ["x", "x.jpg", "y"])
    }

    /// A folder made later under the name of a member there takes the name; the member moves to
    /// ` (N)` (the kernel told of both), so neither hides the other.
    @Test func aFolderMadeLaterMovesTheMemberOfItsName() throws {
        let catalog = try ScratchCatalog()
        try catalog.apply("A", ["x.jpg"])
        try catalog.apply("B", ["y.jpg"])
        try catalog.record(["x.jpg": Self.properties { $0.keywords = [["y"]] }], in: "A")
        try catalog.record(["y.jpg": Self.properties { $0.keywords = [["y"]] }], in: "B")
        #expect(catalog.names("tags/y") == ["x", "y"])
        let changes = try catalog.record(["x.jpg": Self.properties { $0.keywords = [["y"], ["y", "y"]] }], in: "A")
        #expect(catalog.names("tags/y")?.sorted() == ["x", "y", "y (2)"])
        #expect(catalog.names("tags/y/y") == ["x"])
        #expect(!changes.isEmpty)
    }

    /// A Live Photo's movie is in no view once paired, whichever half was read first; unpaired
    /// (its still gone), it is read again and comes back.
    @Test func aLivePhotosMovieIsInNoView() throws {
        for stillFirst in [true, false] {
            let catalog = try ScratchCatalog()
            try catalog.apply("L", ["IMG_1.HEIC", "IMG_1.MOV"])
            let still = Self.properties { $0.liveIdentifier = "L1"; $0.rating = 5 }
            let movie = Self.properties(day: 20230831) {
                $0.liveIdentifier = "L1"
                ($0.latitude, $0.longitude, $0.place) = (60.39, 5.32, Place(country: "Norway", region: "Vestland", city: "Bergen"))
            }
            let first = stillFirst ? ["IMG_1.HEIC": still] : ["IMG_1.MOV": movie]
            try catalog.record(first, in: "L")
            if !stillFirst { #expect(catalog.names("videos/2023") == ["IMG_1.MOV"] || catalog.names("videos/2023") == ["IMG_1"]) }
            try catalog.record(stillFirst ? ["IMG_1.MOV": movie] : ["IMG_1.HEIC": still], in: "L")
            #expect(catalog.names("videos") == [], "stillFirst \(stillFirst)")
            #expect(catalog.names("dates") == ["2023"] && catalog.names("dates/2023") == ["2023-09-01"], "stillFirst \(stillFirst)")
            #expect(catalog.names("favorites")?.count == 1)
            #expect(catalog.names("places/Norway")?.count == 1, "the still takes the movie's place (stillFirst \(stillFirst))")
        }
        let catalog = try ScratchCatalog()
        try catalog.apply("L", ["IMG_1.HEIC", "IMG_1.MOV"])
        try catalog.record(["IMG_1.HEIC": Self.properties { $0.liveIdentifier = "L1" }, "IMG_1.MOV": Self.properties { $0.liveIdentifier = "L1" }], in: "L")
        try catalog.apply("L", ["IMG_1.MOV"])
        #expect(catalog.store.read { $0.undatedPhotos(after: 0, limit: 10) }.count == 1, "the movie is read again")
        try catalog.record(["IMG_1.MOV": Self.properties()], in: "L")
        #expect(catalog.names("videos/2023")?.count == 1)
    }

    @Test func onlyTheChosenViewsAreShown() throws {
        let catalog = try ScratchCatalog()
        try catalog.apply("A", ["a.jpg"])
        try catalog.record(["a.jpg": Self.properties { $0.rating = 5 }], in: "A")
        let tree = MountTree(sizes: RenditionSizes(), views: [.favorites])
        let member = try #require(catalog.node("dates/2023/2023-09-01/a"))
        catalog.store.read { snapshot in
            let names = (tree.entries(of: .root, after: 0, limit: 100, in: snapshot) ?? []).map { text($0.name) }
            #expect(names == ["groups", "thumbnails", "fullscreen", "favorites", "ids"])
            #expect(tree.child(of: .root, named: Array("dates".utf8), in: snapshot) == nil)
            #expect(tree.node(forInode: Node.viewTop(.dates).inode, in: snapshot) == nil)
            #expect(tree.node(forInode: member.inode, in: snapshot) == nil)
            #expect(tree.child(of: .root, named: Array("favorites".utf8), in: snapshot) == .viewTop(.favorites))
        }
    }

    /// The helpers a clustering view (events) writes with, inside a write: folders made on
    /// demand, members named uniquely, a folder renamed, and one emptied going with its parents;
    /// every entry that came, went or changed reaches the kernel through the write's changes.
    @Test func theWriteHelpersKeepCountsNamesAndTheKernelInStep() throws {
        let catalog = try ScratchCatalog()
        try catalog.apply("A", ["x.jpg", "y.jpg"])
        let album = try #require(catalog.store.read { $0.folder(at: FilePath("A")) })
        let rows = catalog.store.read { $0.photos(inFolder: album.id, after: 0, limit: 10) }
        #expect(rows.count == 2)
        let (event, made) = try catalog.store.change { db throws(DatabaseError) in
            let year = try CatalogStore.folderID(view: .events, parent: 0, name: Array("2023".utf8), create: true, db)!
            let event = try CatalogStore.folderID(view: .events, parent: year, name: Array("2023-09-01 Bergen".utf8), create: true, db)!
            #expect(try CatalogStore.folderID(view: .events, parent: year, name: Array("2023-09-01 Bergen".utf8), create: false, db) == event)
            let folder = CatalogStore.ViewFolder(.events, id: event)
            #expect(try CatalogStore.addMember(photo: rows[0].id, folder: folder, assetName: Array("x".utf8), db) == Array("x".utf8))
            #expect(try CatalogStore.addMember(photo: rows[1].id, folder: folder, assetName: Array("x".utf8), db) == Array("x (2)".utf8))
            #expect(try CatalogStore.addMember(photo: rows[1].id, folder: folder, assetName: Array("y".utf8), db) == Array("x (2)".utf8), "a member keeps its name")
            return (event, try catalog.store.assetFolderChanges(db))
        }
        let year = try #require(catalog.node("events/2023"))
        #expect(catalog.names("events/2023/2023-09-01 Bergen") == ["x", "x (2)"])
        #expect(catalog.viewFolder(event).map { ($0.folders, $0.members) } ?? (-1, -1) == (0, 2))
        #expect(made.contains(.viewEntry(view: .events, parent: 0, name: Array("2023".utf8))))
        let renamed = try catalog.store.change { db throws(DatabaseError) in
            try CatalogStore.renameFolder(event, to: Array("2023-09-01 – 2023-09-02 Bergen".utf8), db)
            return try catalog.store.assetFolderChanges(db)
        }
        #expect(renamed.contains(.viewEntry(view: .events, parent: try #require(catalog.viewFolder(event)).parent, name: Array("2023-09-01 Bergen".utf8))))
        #expect(catalog.names("events/2023") == ["2023-09-01 – 2023-09-02 Bergen"])
        let emptied = try catalog.store.change { db throws(DatabaseError) in
            for row in rows { try CatalogStore.removeMember(photo: row.id, folder: CatalogStore.ViewFolder(.events, id: event), db) }
            return try catalog.store.assetFolderChanges(db)
        }
        #expect(catalog.names("events") == [] && catalog.node(forInode: year.inode) == nil, "the event and its year went")
        #expect(catalog.tree.invalidations(for: emptied).contains(.entry(parent: Node.viewTop(.events).inode, name: Array("2023".utf8))))
    }
}
