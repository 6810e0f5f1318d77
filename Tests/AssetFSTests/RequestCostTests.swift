import Places
@testable import Catalog
import Glibc
import MountModel
import Posix
import SQLiteDatabase
import Testing
@testable import AssetFS

/// What a request costs the catalog (issue 19): a request resolves its rows once, on one snapshot,
/// and a listing's entries come from its page's rows. Counted in statements the catalog's read
/// connection runs, `PRAGMA data_version` included.
@Suite struct RequestCostTests {
    static func fixture() -> Fixture {
        Fixture(["Album/a.jpg": "orientation/Landscape_1.jpg", "Album/b.jpg": "orientation/Landscape_3.jpg",
                 "Album/c.jpg": "orientation/Portrait_6.jpg", "Other/d.jpg": "orientation/Landscape_1.jpg"])
    }

    /// Statements run by `body`.
    static func statements(_ fs: AssetFileSystem, _ body: () -> Void) -> Int {
        let before = fs.catalog.readQueryCount
        body()
        return fs.catalog.readQueryCount - before
    }

    @Test func anUncachedThumbnailsLookupChainCostsAtMostThreeStatements() throws {
        let fixture = Self.fixture()
        let fs = try fixture.fileSystem()
        var steps: [Int] = []
        var inode: UInt64 = 1
        for name in ["groups", "Album", "b", "thumbnail.jpg"] {
            steps.append(Self.statements(fs) {
                let result = wait { fs.lookup(parent: inode, name: Array(name.utf8), as: .ofThisProcess, completion: $0) }
                inode = (try? result.get().inode) ?? 0
            })
        }
        #expect(inode != 0)
        print("statements per LOOKUP of groups, Album, b, thumbnail.jpg: \(steps)")
        #expect(steps.reduce(0, +) <= 3, "\(steps)")
    }

    /// `ids/<id>`: its LOOKUP is the index's statement, then the photo and its album for the
    /// link's attributes (its size is the target's length), READLINK those two again (rows a
    /// reader kept from the requests before cost nothing); ids/ itself costs none.
    @Test func anIDsLookupIsOneIndexedStatement() throws {
        let fixture = Self.fixture()
        let fs = try fixture.fileSystem()
        fs.readPendingProperties()
        let asset = try fs.lookupPath("groups/Album/b").get().inode
        let id = try #require(try? fs.extendedAttribute(asset, name: Array("user.assetfs.id".utf8), as: .ofThisProcess).get())
        var ids: UInt64 = 0, link: UInt64 = 0
        let top = Self.statements(fs) { ids = (try? wait { fs.lookup(parent: 1, name: Array("ids".utf8), as: .ofThisProcess, completion: $0) }.get().inode) ?? 0 }
        let lookup = Self.statements(fs) { link = (try? wait { fs.lookup(parent: ids, name: id, as: .ofThisProcess, completion: $0) }.get().inode) ?? 0 }
        var target: [UInt8] = []
        let readlink = Self.statements(fs) {
            target = (try? fs.request { fs.linkTarget(link, as: .ofThisProcess, in: $0) }.get()) ?? []
        }
        print("statements of LOOKUP ids, LOOKUP ids/<id>, READLINK: \(top), \(lookup), \(readlink)")
        #expect(String(decoding: target, as: UTF8.self) == "../groups/Album/b")
        #expect(top == 0 && lookup <= 3 && readlink <= 3, "\(top) \(lookup) \(readlink)")
    }

    @Test func aListingWithAttributesCostsItsPageAndNothingPerEntry() throws {
        let fixture = Self.fixture()
        let fs = try fixture.fileSystem()
        let album = try fs.lookupPath("groups/Album").get().inode
        // As READDIRPLUS does: the page, then each entry's attributes, in one request.
        var described = 0
        let used = Self.statements(fs) {
            _ = fs.request(preparing: album) { (catalog) -> Result<Int, Errno> in
                fs.list(album, after: 0, limit: 100, as: .ofThisProcess, in: catalog).map { entries in
                    described = entries.compactMap { fs.attributesWithoutRendering($0.inode, as: .ofThisProcess, in: catalog) }.count
                    return entries.count
                }
            }
        }
        print("statements of a READDIRPLUS page of 4 entries (poster and 3 assets): \(used)")
        #expect(described == 3, "the three asset folders have attributes without rendering")
        #expect(used <= 2, "the page's query and one data_version: \(used)")
    }

    /// A whole listing, as `ls` reads it: pages of 2 entries until an empty one. Each page costs
    /// its rows' query (and at most a `data_version`), the empty page that ends it included (it
    /// also makes sure the folder is still there): a listing costs a statement or two a page, as
    /// the manual says, not one in all.
    @Test func aWholeListingCostsAStatementOrTwoAPage() throws {
        let fixture = Self.fixture()
        let fs = try fixture.fileSystem()
        let album = try fs.lookupPath("groups/Album").get().inode
        var pages: [Int] = []
        var cookie: Int64 = 0
        while pages.count < 10 {
            var entries: [ListingEntry] = []
            pages.append(Self.statements(fs) { entries = (try? fs.list(album, after: cookie, limit: 2, as: .ofThisProcess).get()) ?? [] })
            guard let last = entries.last else { break }
            cookie = last.cookie
        }
        print("statements per page of groups/Album (poster and 3 assets, 2 a page, then the empty page): \(pages)")
        #expect(pages.count == 3, "\(pages)")
        #expect(pages.allSatisfy { (1...2).contains($0) }, "\(pages)")
    }

    /// Every view (issue 31): an uncached LOOKUP chain costs at most three statements. A view's
    /// top costs none; a view folder or member one, a folder bringing its subfolders along when
    /// few (a year's days, a country's regions: the level after it costs none); a member reads
    /// its photo's row with it, so a file under it costs none (kept rows are checked against the
    /// commit count, no statement). A READDIRPLUS page of a view's folder, its entries'
    /// attributes (link counts) included, costs one or two.
    @Test func everyViewsLookupChainCostsAtMostThreeStatementsAndAPageOneOrTwo() throws {
        let fixture = Fixture(["Album/a.jpg": "orientation/Landscape_1.jpg", "Album/b.jpg": "orientation/Landscape_3.jpg",
                               "Album/clip.mp4": "video/hevc_small.mp4"])
        let fs = try fixture.fileSystem()
        fs.readPendingProperties()
        let album = try #require(fs.catalog.read { $0.album(named: Array("Album".utf8)) })
        let rows = fs.catalog.read { $0.photos(inFolder: album.id, after: 0, limit: 10) }
        let batch = rows.compactMap { row in
            fs.catalog.read { $0.properties(ofPhoto: row.id) }.map { read in
                var properties = read
                (properties.rating, properties.keywords, properties.people) = (5, [["Travel", "Norway"]], ["Anna"])
                properties.place = Place(country: "Norway", region: "Vestland", city: "Bergen")
                return (photo: row, properties: properties)
            }
        }
        #expect(batch.count == 3)
        try fs.catalog.record(batch)
        for view in CatalogView.allCases {
            // The way down to a member's thumbnail, found by listing.
            var path = [MountLayout.viewName(view)], inode = try fs.lookupPath(path[0]).get().inode
            while let first = try fs.list(inode).get().first, first.name != Array("thumbnail.jpg".utf8) {
                path.append(String(decoding: first.name, as: UTF8.self))
                inode = first.inode
            }
            path.append("thumbnail.jpg")
            try fs.catalog.markComplete()  // a commit: every row read so far is read again
            var steps: [Int] = []
            inode = 1
            for name in path {
                steps.append(Self.statements(fs) {
                    inode = (try? wait { fs.lookup(parent: inode, name: Array(name.utf8), as: .ofThisProcess, completion: $0) }.get().inode) ?? 0
                })
            }
            print("statements per LOOKUP of \(path.joined(separator: "/")): \(steps)")
            #expect(inode != 0 && steps.first == 0 && steps.last == 0 && steps.reduce(0, +) <= 3, "\(path): \(steps)")
            // Each folder on the way (the member's too) listed with its entries' attributes.
            for depth in 1..<path.count {
                let folder = try fs.lookupPath(path.prefix(depth).joined(separator: "/")).get().inode
                try fs.catalog.markComplete()
                var described = 0
                let used = Self.statements(fs) {
                    _ = fs.request(preparing: folder) { (catalog) -> Result<Int, Errno> in
                        fs.list(folder, after: 0, limit: 100, as: .ofThisProcess, in: catalog).map { entries in
                            described = entries.compactMap { fs.attributesWithoutRendering($0.inode, as: .ofThisProcess, in: catalog) }.count
                            return entries.count
                        }
                    }
                }
                #expect(described > 0 && used <= 2, "\(path.prefix(depth)): \(used) statements")
            }
        }
    }

    /// Rows kept across requests are read again once anyone commits: a photo replaced in SOURCE
    /// and scanned again (by the writer, another connection) gives its asset folder's files new inodes.
    @Test func rowsKeptAcrossRequestsFollowCommits() throws {
        let fixture = Self.fixture()
        let fs = try fixture.fileSystem()
        let before = try fs.lookupPath("groups/Album/b/thumbnail.jpg").get().inode
        #expect(try fs.lookupPath("groups/Album/b/thumbnail.jpg").get().inode == before)
        fixture.copy("orientation/Portrait_6.jpg", to: "Album/b.jpg")
        _ = fs.rescan()
        let after = try fs.lookupPath("groups/Album/b/thumbnail.jpg").get().inode
        #expect(after != before, "the replaced photo's thumbnail is a new file")
    }

    /// A catalog that cannot be read answers EIO, never "no such file" (a damaged catalog must not
    /// look like an empty library to `rsync --delete`).
    @Test func aCatalogReadFailureIsAnIOError() throws {
        let fixture = Self.fixture()
        let fs = try fixture.fileSystem()
        let album = try fs.lookupPath("groups/Album").get().inode
        let asset = try fs.lookupPath("groups/Album/b").get().inode
        // Damaged by a commit counted as every store's are (`CommitCounter`): rows kept before it
        // are read again, and fail.
        let other = try Database(path: fs.catalog.path)
        try fs.catalog.commits.committing { () throws(DatabaseError) in try other.execute("PRAGMA foreign_keys = OFF; DROP TABLE photos") }
        let lookup = wait { fs.lookup(parent: album, name: Array("a".utf8), as: .ofThisProcess, completion: $0) }
        #expect(lookup.error == .io, "\(lookup)")
        #expect(fs.list(album).error == .io)
        #expect(fs.extendedAttribute(asset, name: Array("user.assetfs.source".utf8), as: .ofThisProcess).error == .io)
    }
}

extension Result {
    var error: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
