import Foundation
import Glibc
import Testing

extension Mounted {
    /// `assetfs locate` (issue 32 item 3): from files of SOURCE to every path of the mount that
    /// shows them, answered from the catalog.
    @Suite struct LocateTests {
        static let library = Library(sourceName: "Photos", albums: [
            Library.Album(name: Array("A".utf8), assets: [
                Library.Asset(name: Array("a".utf8), source: Array("A/a.jpg".utf8), sample: "cameras/Casio_EX-S1.jpg"),
                Library.Asset(name: Array("clip".utf8), source: Array("A/clip.mp4".utf8), sample: "video/Android_gps_3frames.mp4", original: "original.mp4"),
                Library.Asset(name: Array("motion".utf8), source: Array("A/motion.jpg".utf8), sample: "motion/Pixel_motion_photo.jpg"),
                Library.Asset(name: Array("two\nlines".utf8), source: Array("A/two\nlines.jpg".utf8), sample: "formats/Nikon_D1X_AdobeRGB.jpg"),
            ]),
            Library.Album(name: Array("B".utf8), assets: [
                Library.Asset(name: Array("copy".utf8), source: Array("B/copy.jpg".utf8), sample: "cameras/Casio_EX-S1.jpg"),
            ]),
        ], extras: [(Array("A/notes.txt".utf8), nil)])

        static func locate(_ scratch: Scratch, _ files: [String], null: Bool = false) -> CommandOutput {
            AssetFS.run(["locate"] + (null ? ["-0"] : []) + ["-o", "cache=\(scratch.cache)"] + files)
        }

        /// Every kind of asset: each path printed exists in the mount and shows that file (its
        /// asset folder names it as source); a copy's `ids/<id>` leads to the first one only,
        /// and only the first is in the views.
        @Test func everyPathShowsTheFile() throws {
            try withScratch(Self.library, changesSource: true) { scratch in
                try RawFiles.write(try TestData.contents("video/iPhone6s_livephoto.mov"), to: scratch.sourceBytes / "A" / "IMG_0020.MOV")
                try LivePhotoChangeTests.makeStill(at: scratch.source + "/A/IMG_0020.HEIC")
                let mount = try scratch.mount()
                let ready = eventually(timeout: 20) {
                    statErrno(mount.groups / "A" / "IMG_0020" / "motion.mov") == 0
                        && (try? RawFiles.extendedAttribute("user.assetfs.id", of: mount.groups / "B" / "copy").get()) != nil
                }
                #expect(ready, "the Live Photo was not paired or the ids not read within 20 s")
                for (file, asset) in [("A/a.jpg", "A/a"), ("A/clip.mp4", "A/clip"), ("A/motion.jpg", "A/motion"),
                                      ("A/IMG_0020.HEIC", "A/IMG_0020"), ("B/copy.jpg", "B/copy")] {
                    // -0: the paths as they are (places/ and events/ names have spaces, which lines quote).
                    let found = Self.locate(scratch, [scratch.source + "/" + file], null: true)
                    #expect(found.status == 0, "\(file): \(found.err)")
                    let fields = found.nulFields.map(\.text)  // the file, then a path, for each path
                    let paths = stride(from: 1, to: fields.count, by: 2).map { fields[$0] }
                    let album = String(asset.prefix { $0 != "/" }), name = String(asset.drop { $0 != "/" }.dropFirst())
                    #expect(paths.first == mount.point + "/groups/" + asset, "\(file): \(paths)")
                    #expect(paths.contains(mount.point + "/thumbnails/" + album + "/" + name + ".jpg"), "\(file): \(paths)")
                    #expect(paths.contains { $0.hasPrefix(mount.point + "/dates/") } == (file != "B/copy.jpg"), "\(file): \(paths)")
                    #expect(paths.contains { $0.hasPrefix(mount.point + "/ids/") } == (file != "B/copy.jpg"), "\(file): \(paths)")
                    for path in paths {
                        #expect(statErrno(Array(path.utf8)) == 0, "\(file): \(path) is not there")
                        let source = try? RawFiles.extendedAttribute("user.assetfs.source", of: Array(path.utf8)).get().text
                        #expect(source == nil || source == file, "\(path) shows \(source ?? "")")
                    }
                }
                // The copies name each other.
                #expect((try? RawFiles.extendedAttribute("user.assetfs.duplicates", of: mount.groups / "B" / "copy").get())?.text == "A/a.jpg")
                #expect((try? RawFiles.extendedAttribute("user.assetfs.duplicates", of: mount.groups / "A" / "a").get())?.text == "B/copy.jpg")
                #expect((try? RawFiles.extendedAttribute("user.assetfs.duplicates", of: mount.groups / "A" / "motion").get()) == nil)
                // The Live Photo's movie: its still's motion.mov, whose folder names it.
                let movie = Self.locate(scratch, [scratch.source + "/A/IMG_0020.MOV"])
                #expect(movie.status == 0 && movie.out == mount.point + "/groups/A/IMG_0020/motion.mov\n", "\(movie.out) \(movie.err)")
                #expect((try? RawFiles.extendedAttribute("user.assetfs.motion_source", of: mount.groups / "A" / "IMG_0020").get())?.text == "A/IMG_0020.MOV")
                #expect((try? RawFiles.extendedAttribute("user.assetfs.motion_source", of: mount.groups / "A" / "a").get()) == nil)
            }
        }

        /// Relative paths, several files, a name with a newline (quoted as `ls -b`, raw with
        /// -0), a skipped file and one outside SOURCE (exit status 1, the reason on stderr).
        @Test func quotingSeveralFilesAndFailures() throws {
            try withScratch(Self.library) { scratch in
                let mount = try scratch.mount()
                #expect(eventually(timeout: 15) { (try? RawFiles.extendedAttribute("user.assetfs.id", of: mount.groups / "A" / "two\nlines").get()) != nil })
                let both = Command.bash("cd \"$1\" && \"$2\" locate -o cache=\"$3\" A/a.jpg $'A/two\\nlines.jpg'", [scratch.source, AssetFS.binary, scratch.cache])
                #expect(both.status == 0, "\(both.err)")
                let lines = both.out.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                #expect(lines.first == "A/a.jpg:" && lines.contains("A/two\\nlines.jpg:") && lines.contains(mount.point + "/groups/A/two\\nlines"), "\(lines)")
                let raw = Self.locate(scratch, [scratch.source + "/A/two\nlines.jpg"], null: true)
                #expect(raw.status == 0 && raw.nulFields.count % 2 == 0 && raw.nulFields.count >= 8, "\(raw.nulFields.map(\.text))")
                #expect(raw.nulFields.first?.text == scratch.source + "/A/two\nlines.jpg" && raw.nulFields.dropFirst().first?.text == mount.point + "/groups/A/two\nlines")

                let skipped = Self.locate(scratch, [scratch.source + "/A/notes.txt", scratch.source + "/A/a.jpg"])
                #expect(skipped.status == 1 && skipped.err.contains("notes.txt: not shown, skipped as not-a-photo"), "\(skipped.err)")
                #expect(skipped.out.contains(mount.point + "/groups/A/a\n"), "the other file is still located: \(skipped.out)")
                let outside = Self.locate(scratch, ["/etc/hostname"])
                #expect(outside.status == 1 && outside.out.isEmpty && outside.err.contains("not in a SOURCE assetfs has scanned"), "\(outside.err)")
                let missing = Self.locate(scratch, [scratch.source + "/A/none.jpg"])
                #expect(missing.status == 1 && missing.err.contains("not in the catalog"), "\(missing.err)")
            }
        }
    }
}
