import Posix
import Testing
@testable import Catalog
@testable import PhotoSource

func photo(_ path: String, inode: UInt64 = 1) -> Photo {
    let relative = FilePath(path)
    return Photo(relativePath: relative, fileName: relative.lastComponent,
                 identity: SourceIdentity(inode: inode, size: 10, modificationNanoseconds: 5, changeNanoseconds: 5),
                 ownership: Ownership(userID: 0, groupID: 0, permissions: 0o444, modificationNanoseconds: 5))
}

func library(root: String = "/photos/Pictures", _ albums: [String: [String]]) -> PhotoLibrary {
    let ownership = Ownership(userID: 0, groupID: 0, permissions: 0o555, modificationNanoseconds: 0)
    let list = albums.keys.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }.map { folder in
        PhotoAlbum(relativePath: FilePath(folder), ownership: ownership,
                   photos: albums[folder]!.sorted().map { photo(folder.isEmpty ? $0 : "\(folder)/\($0)") })
    }
    return PhotoLibrary(root: FilePath(root), albums: list, skipped: 0, folders: [])
}

func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

@Suite struct CatalogTests {
    @Test func albumNamesFlattenPathsAndResolveCollisions() {
        let catalog = Catalog(library: library(["": ["a.jpg"], "Pictures": ["b.jpg"], "2023/Trip": ["c.jpg"], "x／y": ["d.jpg"]]))
        #expect(catalog.albums.map { text($0.name) } == ["Pictures", "2023／Trip", "Pictures (2)", "x‛／y"])
    }

    @Test func aLiteralFullwidthSolidusCannotImpersonateANestedFolder() {
        let catalog = Catalog(library: library(["a/b": ["1.jpg"], "a／b": ["2.jpg"]]))
        let names = Set(catalog.albums.map(\.name))
        #expect(names.count == 2)
    }

    @Test func assetNamesDropTheExtensionUnlessThatClashes() {
        let names = Naming.assetNames(fileNames: ["IMG_1.JPG", "IMG_2.jpg", "IMG_2.jpeg", "a", "a.jpg", "thumbnail.jpg.jpg", "thumbnail.jpg", ".jpg"].map { Array($0.utf8) })
        #expect(names.map(text) == ["IMG_1", "IMG_2.jpg", "IMG_2.jpeg", "a", "a.jpg", "thumbnail.jpg.jpg", "thumbnail", ".jpg"])
    }

    @Test func noAssetCanTakeThePostersName() {
        let catalog = Catalog(library: library(["A": ["thumbnail.jpg", "thumbnail.jpeg"]]))
        #expect(!catalog.albums[0].assetNames.contains(Array("thumbnail.jpg".utf8)))
        #expect(Set(catalog.albums[0].assetNames).count == 2)
    }

    @Test func treeLinksAreConsistent() throws {
        let catalog = Catalog(library: library(["A": ["x.jpg", "y.jpg"]]))
        let album = try #require(catalog.child(of: .groups, named: Array("A".utf8)))
        #expect(catalog.children(of: album)?.map { text($0.name) } == ["thumbnail.jpg", "x", "y"])
        let asset = try #require(catalog.child(of: album, named: Array("y".utf8)))
        #expect(catalog.children(of: asset)?.map { text($0.name) } == ["thumbnail.jpg", "fullscreen.jpg", "original.jpg"])
        let original = try #require(catalog.child(of: asset, named: Array("original.jpg".utf8)))
        #expect(text(catalog.path(of: original)) == "groups/A/y/original.jpg")
        #expect(catalog.node(forInode: catalog.inode(of: original)) == original)
        #expect(catalog.node(forInode: Catalog.rootInode) == .root)
        #expect(catalog.child(of: asset, named: Array("other.jpg".utf8)) == nil)
    }

    /// `..` of every folder is the folder listing it (what NFS asks when it reconnects a handle).
    @Test func everyFolderKnowsItsParent() {
        let catalog = Catalog(library: library(["2023/Trip": ["c.jpg", "d.jpg"], "Garden": ["e.jpg"]]))
        #expect(catalog.parent(of: .root) == .root)
        var folders = 0
        func visit(_ node: Node) {
            for child in catalog.children(of: node) ?? [] {
                if child.node.isDirectory { folders += 1; #expect(catalog.parent(of: child.node) == node) }
                else { #expect(catalog.parent(of: child.node) == nil) }
                visit(child.node)
            }
        }
        visit(.root)
        #expect(folders == 3 + 3 * 2 + 3)  // groups and the two views; 2 albums in each of those; 3 assets
    }

    @Test func inodeNumbersAreStableAndUnaffectedByOtherPhotos() {
        let before = Catalog(library: library(["A": ["x.jpg", "y.jpg"]]))
        let again = Catalog(library: library(["A": ["x.jpg", "y.jpg"]]))
        let after = Catalog(library: library(["A": ["w.jpg", "x.jpg", "y.jpg"], "B": ["z.jpg"]]))
        for node in [Node.album(0), .asset(album: 0, asset: 1), .file(album: 0, asset: 1, kind: .thumbnail)] {
            #expect(before.inode(of: node) == again.inode(of: node))
        }
        #expect(before.inode(of: .asset(album: 0, asset: 0)) == after.inode(of: .asset(album: 0, asset: 1)))
        let all = (0..<3).flatMap { i in FileKind.allCases.map { after.inode(of: .file(album: 0, asset: i, kind: $0)) } }
        #expect(Set(all).count == all.count)
    }
}
