import Foundation
import Glibc
import Testing

extension Mounted {
    /// A live mount follows its source: changed, removed and added photos show within seconds.
    @Suite struct ChangeTests {
        static let library = Library(sourceName: "Photos", albums: [
            Library.Album(name: Array("Live".utf8), assets: [
                Library.Asset(name: Array("a".utf8), source: Array("Live/a.jpg".utf8), sample: "cameras/Casio_EX-S1.jpg"),
                Library.Asset(name: Array("b".utf8), source: Array("Live/b.jpg".utf8), sample: "cameras/Nikon_D5000.jpg"),
            ]),
        ])

        static func identify(_ path: [UInt8]) -> String {
            Command.forEachPath([path], fields: 1, #"printf '%s\0' "$(cat -- "$f" | identify -format '%wx%h' -)""#)[0][0]
        }

        @Test func modifiedPhotoGetsANewThumbnail() throws {
            try withScratch(Self.library, changesSource: true) { scratch in
                let mount = try scratch.mount()
                let thumbnail = mount.groups / "Live" / "a" / "thumbnail.jpg"
                let poster = mount.groups / "Live" / "thumbnail.jpg"
                let before = try RawFiles.read(thumbnail).get()
                #expect(Self.identify(thumbnail) == "256x192")

                // Same file, new contents (another camera, another size) and a new mtime.
                let source = scratch.sourceBytes / "Live" / "a.jpg"
                try RawFiles.write(try TestData.contents("cameras/Kodak_DX4330.jpg"), to: source)
                let touch = Command.run("touch", ["-m", "-d", "@1500000000", scratch.source + "/Live/a.jpg"])
                #expect(touch.status == 0)

                let changed = eventually(timeout: 10) {
                    guard let now = try? RawFiles.read(thumbnail).get(), now != before,
                          case .success(let st) = RawFiles.status(thumbnail) else { return false }
                    return st.st_size == now.count && st.st_mtim.tv_sec == 1_500_000_000
                }
                #expect(changed, "thumbnail.jpg still shows the old photo 10 s after the source changed")
                #expect(Self.identify(thumbnail) == "256x171", "the new photo is 2160x1440")
                let sizes = Command.forEachPath([thumbnail, poster], fields: 2,
                                                #"printf '%s\0%s\0' "$(stat -c %s -- "$f")" "$(cat -- "$f" | wc -c)""#)
                #expect(sizes[0][0] == sizes[0][1] && sizes[1][0] == sizes[1][1], "stat vs cat | wc -c: \(sizes)")
                #expect((try? RawFiles.read(poster).get()) == (try? RawFiles.read(thumbnail).get()), "the album poster follows")
                let original = try RawFiles.read(mount.groups / "Live" / "a" / "original.jpg").get()
                #expect(original == (try TestData.contents("cameras/Kodak_DX4330.jpg")))
            }
        }

        @Test func removedPhotoDisappearsAndNewAlbumAppears() throws {
            try withScratch(Self.library, changesSource: true) { scratch in
                let mount = try scratch.mount()
                let album = mount.groups / "Live"
                #expect(RawFiles.names(in: album)?.contains(Array("b".utf8)) == true)
                #expect(statErrno(album / "b" / "thumbnail.jpg") == 0)

                #expect(unlink(scratch.source + "/Live/b.jpg") == 0)
                let gone = eventually(timeout: 10) {
                    statErrno(album / "b") == ENOENT && RawFiles.names(in: album)?.contains(Array("b".utf8)) == false
                }
                #expect(gone, "groups/Live/b still there 10 s after its photo was removed")
                #expect(statErrno(album / "a" / "thumbnail.jpg") == 0, "the other photo stays")

                try RawFiles.makeDirectories(scratch.sourceBytes / "New")
                try RawFiles.write(try TestData.contents("cameras/Samsung_GT-I9000_Galaxy_S.jpg"), to: scratch.sourceBytes / "New" / "c.jpg")
                let appeared = eventually(timeout: 10) {
                    RawFiles.names(in: mount.groups)?.contains(Array("New".utf8)) == true
                        && (try? RawFiles.read(mount.groups / "New" / "c" / "thumbnail.jpg").get())?.starts(with: [0xFF, 0xD8]) == true
                }
                #expect(appeared, "groups/New/c/thumbnail.jpg not readable 10 s after the folder was made")
                #expect(Self.identify(mount.groups / "New" / "c" / "thumbnail.jpg") == "192x256")
                let stats = try mount.stats()
                #expect(stats.albums == 2 && stats.assets == 2, "\(stats)")
            }
        }
    
        /// Editors save by writing a hidden temporary file and renaming it over the photo.
        @Test func photoReplacedByRenameGetsANewThumbnail() throws {
            try withScratch(Self.library, changesSource: true) { scratch in
                let mount = try scratch.mount()
                let thumbnail = mount.groups / "Live" / "b" / "thumbnail.jpg"
                let before = try RawFiles.read(thumbnail).get()
                let temporary = scratch.sourceBytes / "Live" / ".b.jpg.tmp"
                try RawFiles.write(try TestData.contents("cameras/Samsung_GT-I9000_Galaxy_S.jpg"), to: temporary)
                #expect(rename(temporary.text, scratch.source + "/Live/b.jpg") == 0)
                let changed = eventually(timeout: 10) {
                    guard let now = try? RawFiles.read(thumbnail).get() else { return false }
                    return now != before && now.starts(with: [0xFF, 0xD8])
                }
                #expect(changed, "thumbnail.jpg still shows the old photo 10 s after the rename")
                #expect(Self.identify(thumbnail) == "192x256")
                let stats = try mount.stats()
                #expect(stats.assets == 2 && stats.skipped == 0, "the temporary file is gone: \(stats)")
            }
        }
    }
}
