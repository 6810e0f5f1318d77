import Foundation
import Glibc
import Testing

extension Mounted {
    /// Live Photos on a live mount whose SOURCE changes (issue 29 items 3 and 4).
    @Suite struct LivePhotoChangeTests {
        static let library = Library(sourceName: "Photos", albums: [
            Library.Album(name: Array("Live".utf8), assets: [
                Library.Asset(name: Array("a".utf8), source: Array("Live/a.jpg".utf8), sample: "cameras/Casio_EX-S1.jpg"),
            ]),
        ])

        /// The fixture's still given the fixture MOV's content identifier (the shared fixtures
        /// hold no pair), written at `path`.
        static func makeStill(at path: String) throws {
            try RawFiles.write(try TestData.contents("formats/iPhone_XR_irot.heic"), to: Array(path.utf8))
            let tagged = Command.run("exiftool", ["-q", "-overwrite_original", "-Apple:MediaGroupUUID=E905E6C6-C747-4805-942F-9904A0281F02", path])
            #expect(tagged.status == 0, "\(tagged.err)")
        }

        static func names(_ path: [UInt8]) -> [String] {
            (RawFiles.names(in: path) ?? []).map { String(decoding: $0, as: UTF8.self) }.sorted()
        }

        /// A MOV that reaches SOURCE before its still (a phone sync app, MTP): the pair is named
        /// by the still, as a fresh scan names it, not `IMG_0020 (2)`.
        @Test func aPairWhoseMovieCameFirstIsNamedAsAFreshScanNamesIt() throws {
            try withScratch(Self.library, changesSource: true) { scratch in
                let mount = try scratch.mount()
                let album = mount.groups / "Live"
                try RawFiles.write(try TestData.contents("video/iPhone6s_livephoto.mov"), to: scratch.sourceBytes / "Live" / "IMG_0020.MOV")
                let shown = eventually { Self.names(album).contains("IMG_0020") }
                #expect(shown, "the MOV is not shown 10 s after it came")
                try Self.makeStill(at: scratch.path + "/IMG_0020.HEIC")
                #expect(rename(scratch.path + "/IMG_0020.HEIC", scratch.source + "/Live/IMG_0020.HEIC") == 0)
                let paired = eventually(timeout: 15) { statErrno(album / "IMG_0020" / "motion.mov") == 0 }
                #expect(paired, "groups/Live/IMG_0020/motion.mov not there 15 s after the still came: \(Self.names(album))")
                #expect(Self.names(album) == ["IMG_0020", "a", "thumbnail.jpg"])
            }
        }

        /// Deleting a pair's MOV takes `motion.mov` out of `ls` and `stat` at once, though both
        /// have been answered before (the kernel keeps entries for an hour).
        @Test func aDeletedMovieLeavesNoGhostMotionFile() throws {
            try withScratch(Self.library, changesSource: true) { scratch in
                try RawFiles.write(try TestData.contents("video/iPhone6s_livephoto.mov"), to: scratch.sourceBytes / "Live" / "IMG_0020.MOV")
                try Self.makeStill(at: scratch.source + "/Live/IMG_0020.HEIC")
                let mount = try scratch.mount()
                let asset = mount.groups / "Live" / "IMG_0020"
                let motion = asset / "motion.mov"
                let paired = eventually(timeout: 15) { statErrno(motion) == 0 }
                #expect(paired, "never paired: \(Self.names(asset))")
                #expect(Self.names(asset).contains("motion.mov"))
                #expect(unlink(scratch.source + "/Live/IMG_0020.MOV") == 0)
                let gone = eventually(timeout: 10) { statErrno(motion) == ENOENT && !Self.names(asset).contains("motion.mov") }
                #expect(gone, "motion.mov still listed or found 10 s after the MOV was deleted: \(Self.names(asset))")
                #expect(Self.names(asset) == ["fullscreen.jpg", "original.heic", "thumbnail.jpg"])
            }
        }
    }
}
