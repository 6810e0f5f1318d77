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
        let fd = try! OwnedFileDescriptor.create(path, permissions: mode)
        try! fd.writeAll(bytes)
        try! fd.close()
        _ = path.withCString { chmod($0, mode) }
    }
}

func names(_ photos: [Photo]) -> [String] { photos.map { String(decoding: $0.fileName, as: UTF8.self) } }

@Suite struct FolderReaderTests {
    @Test func aFolderHoldsItsPhotosByContentAndVisibleSubfolders() throws {
        let tree = ScratchTree()
        tree.file("root.jpg")
        tree.file("2023/Trip/a.jpg")
        tree.file("readme.txt", Array("hello".utf8))
        tree.file("picture.jpg", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])  // a PNG by content
        tree.file("photo.png", [0xFF, 0xD8, 0xFF])  // a JPEG by content
        tree.file("clip.mp4", [0, 0, 0, 0x18] + Array("ftypmp42".utf8) + [0, 0, 0, 0])
        tree.file("memo.m4a", Self.movie(handlers: ["soun"]))
        tree.file("film.mov", Self.movie(handlers: ["soun", "vide"], brand: "qt  "))
        tree.file(".secret.jpg")
        tree.file(".thumbnails/x.jpg")
        let listing = try FolderReader(root: tree.root, followSymlinks: false).read(FilePath(bytes: []))
        // Videos are assets too; one whose tracks are not yet known (no movie box) is one until opened.
        #expect(names(listing.photos) == ["clip.mp4", "film.mov", "photo.png", "picture.jpg", "root.jpg"])
        #expect(listing.photos.map(\.format) == [.mp4, .quickTime, .jpeg, .png, .jpeg])
        #expect(listing.photos.map { String(decoding: $0.originalFileName, as: UTF8.self) }
                    == ["original.mp4", "original.mov", "original.jpg", "original.jpg", "original.jpg"])
        #expect(listing.subfolders.map { String(decoding: $0.name, as: UTF8.self) } == ["2023"])
        let skipped = listing.skipped.map { "\(String(decoding: $0.name, as: UTF8.self)):\($0.reason.rawValue)" }
        #expect(skipped == [".secret.jpg:hidden", "memo.m4a:audio-only", "readme.txt:not-a-photo"])
        #expect(try FolderReader(root: tree.root, followSymlinks: false).read(FilePath("2023/Trip")).photos.count == 1)
    }

    /// An ISO media file whose movie holds one track per handler type (ftyp, moov/trak/mdia/hdlr).
    static func movie(handlers: [String], brand: String = "M4A ") -> [UInt8] {
        func box(_ type: String, _ content: [UInt8]) -> [UInt8] {
            let size = UInt32(8 + content.count)
            return [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)] + Array(type.utf8) + content
        }
        let tracks = handlers.flatMap { handler in
            box("trak", box("tkhd", [UInt8](repeating: 0, count: 84)) + box("mdia", box("hdlr", [UInt8](repeating: 0, count: 8) + Array(handler.utf8) + [UInt8](repeating: 0, count: 13))))
        }
        return box("ftyp", Array(brand.utf8) + [0, 0, 0, 0] + Array("isom".utf8)) + box("moov", box("mvhd", [UInt8](repeating: 0, count: 100)) + tracks)
            + box("mdat", [1, 2, 3, 4])
    }

    @Test func identityAndOwnershipComeFromTheSourceFile() throws {
        let tree = ScratchTree()
        tree.file("A/private.jpg", mode: 0o600)
        let status = try FileStatus(path: tree.root.appending(FilePath("A/private.jpg")))
        let photo = try #require(try FolderReader(root: tree.root, followSymlinks: false).read(FilePath("A")).photos.first)
        #expect(photo.identity == SourceIdentity(inode: status.inode, size: 4, modificationNanoseconds: status.modificationNanoseconds,
                                                 changeNanoseconds: status.changeNanoseconds))
        #expect(photo.permissions == 0o400)
        #expect(photo.relativePath == FilePath("A/private.jpg"))
    }

    @Test func aKnownUnchangedFileIsNotSniffedAgain() throws {
        let tree = ScratchTree()
        tree.file("A/a.jpg", Array("not a JPEG".utf8))
        let reader = FolderReader(root: tree.root, followSymlinks: false)
        #expect(try reader.read(FilePath("A")).photos.isEmpty)  // sniffed: not a photo
        // Known with this very identity (it was a photo when last sniffed): taken as is, unopened.
        let identity = SourceIdentity(try FileStatus(path: tree.root.appending(FilePath("A/a.jpg"))))
        #expect(try reader.read(FilePath("A"), known: [Array("a.jpg".utf8): (identity, .heif)]).photos.map(\.format) == [.heif])
    }

    /// Every folder once, under its real path: a link to a folder inside adds nothing, one leading
    /// out is followed only when asked, and never back to a folder it sits in.
    @Test func linksToFoldersInsideAddNothingAndLinksOutAreFollowedOnlyWhenAsked() throws {
        let outside = ScratchTree()
        outside.file("Elsewhere/x.jpg")
        let tree = ScratchTree()
        tree.file("In/a.jpg")
        _ = symlink("\(outside.root)/Elsewhere", "\(tree.root)/Link")
        _ = symlink("\(tree.root)/In", "\(tree.root)/InsideLink")
        _ = symlink("..", "\(tree.root)/In/up")
        _ = symlink("\(outside.root)", "\(outside.root)/Elsewhere/back")
        let plain = FolderReader(root: tree.root, followSymlinks: false)
        let top = try plain.read(FilePath(bytes: []))
        #expect(top.subfolders.map { String(decoding: $0.name, as: UTF8.self) } == ["In"])
        #expect(top.skipped.map(\.reason) == [.linkedFolder, .special])  // InsideLink, Link
        #expect(try plain.read(FilePath("In")).skipped.map(\.reason) == [.linkedFolder])  // up
        let following = FolderReader(root: tree.root, followSymlinks: true)
        #expect(try following.read(FilePath(bytes: [])).subfolders.map { String(decoding: $0.name, as: UTF8.self) } == ["In", "Link"])
        let linked = try following.read(FilePath("Link"))
        #expect(linked.subfolders.isEmpty && linked.skipped.map(\.reason) == [.linkedFolder])  // back: a loop
    }

    /// A Synology share: `@eaDir/<photo>/SYNOPHOTO_THUMB_*.jpg` beside every photo, `#recycle`;
    /// a Mac's `.DS_Store` and AppleDouble `._*` files.
    @Test func housekeepingFoldersAreSkippedUnlessAskedAndMacFilesAreHidden() throws {
        let tree = ScratchTree()
        tree.file("Album/a.jpg")
        tree.file("Album/@eaDir/a.jpg/SYNOPHOTO_THUMB_M.jpg")
        tree.file("Album/.DS_Store", Array("Bud1".utf8))
        tree.file("Album/._a.jpg", [0, 5, 0x16, 0x07])
        for folder in ["#recycle", "#snapshot", "@Recycle", "@Recently-Snapshot", ".@__thumb", "$RECYCLE.BIN",
                       "System Volume Information", ".Trashes", ".Spotlight-V100", ".fseventsd", ".DocumentRevisions-V100", "lost+found"] {
            tree.file("\(folder)/x.jpg")
        }
        let reader = FolderReader(root: tree.root, followSymlinks: false)
        let top = try reader.read(FilePath(bytes: []))
        #expect(top.subfolders.map { String(decoding: $0.name, as: UTF8.self) } == ["Album"])
        #expect(top.skipped.count == 12 && top.skipped.allSatisfy { $0.reason == .housekeeping })
        let album = try reader.read(FilePath("Album"))
        #expect(names(album.photos) == ["a.jpg"] && album.subfolders.isEmpty)
        #expect(album.skipped.map { "\(String(decoding: $0.name, as: UTF8.self)) \($0.reason)" } == [".DS_Store hidden", "._a.jpg hidden", "@eaDir housekeeping"])
        let shown = try FolderReader(root: tree.root, followSymlinks: false, showsHousekeeping: true).read(FilePath("Album"))
        #expect(shown.subfolders.map { String(decoding: $0.name, as: UTF8.self) } == ["@eaDir"])
    }

    @Test func namesThatAreNotUTF8Survive() throws {
        let tree = ScratchTree()
        let odd: [UInt8] = [0x66, 0xE9, 0x20, 0x0A, 0x2D]
        try Directory.create(tree.root.appending(odd))
        let fd = try OwnedFileDescriptor.create(tree.root.appending(odd).appending(odd + Array(".jpg".utf8)))
        try fd.writeAll([0xFF, 0xD8])
        try fd.close()
        let listing = try FolderReader(root: tree.root, followSymlinks: false).read(FilePath(bytes: odd))
        #expect(listing.photos.first?.fileName == odd + Array(".jpg".utf8))
        #expect(listing.photos.first?.relativePath.bytes == odd + [0x2F] + odd + Array(".jpg".utf8))
    }

    @Test func aMissingFolderIsAnError() {
        #expect(throws: Errno.notFound) { try FolderReader(root: FilePath("/nonexistent/assetfs"), followSymlinks: false).read(FilePath(bytes: [])) }
    }

    /// The original keeps the source's extension, in lower case, except a JPEG's (always .jpg).
    @Test func originalsAreNamedByTheirFormat() {
        func original(_ name: String, _ format: SourceFormat) -> String {
            let photo = Photo(relativePath: FilePath(name), fileName: Array(name.utf8),
                              identity: SourceIdentity(inode: 1, size: 1, modificationNanoseconds: 1, changeNanoseconds: 1),
                              userID: 0, groupID: 0, permissions: 0o444, format: format)
            return String(decoding: photo.originalFileName, as: UTF8.self)
        }
        #expect(original("IMG_1.JPEG", .jpeg) == "original.jpg")
        #expect(original("IMG_2.HEIC", .heif) == "original.heic")
        #expect(original("DSC_3.NEF", .raw) == "original.nef")
        #expect(original("screen.png", .png) == "original.png")
        #expect(original("noextension", .avif) == "original.avif")
        #expect(original("odd.name with space", .webp) == "original.webp")
    }
}

@Suite struct BindMountsTests {
    func entry(_ mountpoint: String, root: String, device: String = "254:0") -> MountTable.Entry {
        MountTable.Entry(mountpoint: Array(mountpoint.utf8), type: Array("ext4".utf8), source: Array("/dev/vda".utf8),
                         device: Array(device.utf8), root: Array(root.utf8))
    }

    @Test func aBindOfAFolderInsideSourceIsADuplicateAndOthersAreNot() {
        let table = [
            entry("/", root: "/"),
            entry("/home", root: "/", device: "8:1"),
            entry("/home/me/Pictures/B", root: "/me/Pictures/A", device: "8:1"),      // a bind of Pictures/A
            entry("/home/me/Pictures/Disk", root: "/", device: "8:2"),                // another disk: its own folder
            entry("/home/me/Pictures/Other", root: "/srv/photos"),                    // a bind of a folder outside
        ]
        let duplicates = BindMounts.duplicates(in: table, inside: FilePath("/home/me/Pictures"))
        #expect(duplicates == [FilePath("/home/me/Pictures/B"): FilePath("/home/me/Pictures/A")])
        #expect(FolderReader.contains(FilePath("/"), FilePath("/srv")))
        #expect(!FolderReader.contains(FilePath("/a/b"), FilePath("/a/bc")))
    }
}
