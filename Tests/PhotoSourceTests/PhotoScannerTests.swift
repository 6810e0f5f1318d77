import Glibc
import Posix
import Testing
@testable import PhotoSource

/// A scratch source tree, removed afterwards.
final class ScratchTree {
    let root: FilePath
    init() {
        var template = Array("/tmp/assetfs-scan-XXXXXX".utf8CString)
        root = FilePath(String(cString: mkdtemp(&template)!))
    }
    deinit { _ = system("rm -rf '\(root)'") }

    func file(_ relative: String, _ bytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0], mode: mode_t = 0o644) {
        let path = root.appending(FilePath(relative))
        try? Directory.create(FilePath(bytes: Array(path.bytes[..<path.bytes.lastIndex(of: 0x2F)!])))
        let fd = try! FileDescriptor.create(path, permissions: mode)
        try! fd.writeAll(bytes)
        fd.close()
        _ = path.withCString { chmod($0, mode) }
    }
}

@Suite struct PhotoScannerTests {
    @Test func albumsAreFoldersThatDirectlyHoldJPEGs() throws {
        let tree = ScratchTree()
        tree.file("root.jpg")
        tree.file("2023/Trip/a.jpg")
        tree.file("2023/Trip/b.JPG")
        tree.file("2023/readme.txt", Array("hello".utf8))
        tree.file("Empty/picture.png", [0x89, 0x50, 0x4E, 0x47])
        tree.file("Misnamed/photo.png", [0xFF, 0xD8, 0xFF])
        tree.file("Hidden/.secret.jpg")
        tree.file(".thumbnails/x.jpg")
        let library = try PhotoScanner().scan(tree.root)
        #expect(library.albums.map(\.relativePath.description) == ["", "2023/Trip", "Misnamed"])
        #expect(library.albums[1].photos.map(\.fileName) == [Array("a.jpg".utf8), Array("b.JPG".utf8)])
        #expect(library.skipped == 3)  // readme.txt, picture.png, .secret.jpg
        #expect(library.photoCount == 4)
        #expect(library.folders.contains(FilePath("Empty")))
    }

    @Test func identityAndOwnershipComeFromTheSourceFile() throws {
        let tree = ScratchTree()
        tree.file("A/private.jpg", mode: 0o600)
        let status = try FileStatus(path: tree.root.appending(FilePath("A/private.jpg")))
        let photo = try #require(try PhotoScanner().scan(tree.root).albums.first?.photos.first)
        #expect(photo.identity == SourceIdentity(inode: status.inode, size: 4, modificationNanoseconds: status.modificationNanoseconds, changeNanoseconds: status.changeNanoseconds))
        #expect(photo.ownership.permissions == 0o400)
    }

    @Test func aPrivateFolderKeepsItsAlbumsPrivate() throws {
        let tree = ScratchTree()
        tree.file("Private/Deeper/a.jpg")
        _ = tree.root.appending(FilePath("Private")).withCString { chmod($0, 0o700) }
        let album = try #require(try PhotoScanner().scan(tree.root).albums.first)
        #expect(album.ownership.permissions == 0o500)
    }

    @Test func symlinksLeavingTheSourceAreNotFollowedUnlessAsked() throws {
        let outside = ScratchTree()
        outside.file("Elsewhere/x.jpg")
        let tree = ScratchTree()
        tree.file("In/a.jpg")
        _ = symlink("\(outside.root)/Elsewhere", "\(tree.root)/Link")
        _ = symlink("\(tree.root)/In", "\(tree.root)/InsideLink")
        _ = symlink("\(tree.root)", "\(tree.root)/In/Loop")  // a loop back to the root
        let plain = try PhotoScanner().scan(tree.root)
        #expect(plain.albums.map(\.relativePath.description) == ["In"])
        let following = try PhotoScanner(followSymlinks: true).scan(tree.root)
        #expect(following.albums.map(\.relativePath.description) == ["In", "Link"])
    }

    @Test func namesThatAreNotUTF8Survive() throws {
        let tree = ScratchTree()
        let odd: [UInt8] = [0x66, 0xE9, 0x20, 0x0A, 0x2D]
        try Directory.create(tree.root.appending(odd))
        let fd = try FileDescriptor.create(tree.root.appending(odd).appending(odd + Array(".jpg".utf8)))
        try fd.writeAll([0xFF, 0xD8])
        fd.close()
        let album = try #require(try PhotoScanner().scan(tree.root).albums.first)
        #expect(album.relativePath.bytes == odd)
        #expect(album.photos.first?.fileName == odd + Array(".jpg".utf8))
    }

    @Test func aMissingSourceIsAnError() {
        #expect(throws: Errno.notFound) { try PhotoScanner().scan(FilePath("/nonexistent/assetfs")) }
    }
}
