import Foundation
import Glibc
import Testing

extension Mounted {
    /// Issue 32 item 5 on a real mount: an iPhone export's edit `IMG_E0003.JPG` beside its
    /// original `IMG_0003.JPG` and `IMG_0003.AAE`, one shot (date and camera written with exiftool
    /// at run time), are one asset whose renditions show the edit.
    @Suite struct EditPairMountTests {
        // Two different pictures: the original 640x480, the edit 200x130 (its crop, say).
        static let library = Library(sourceName: "Photos", albums: [
            Library.Album(name: Array("A".utf8), assets: [
                Library.Asset(name: Array("IMG_0003".utf8), source: Array("A/IMG_0003.JPG".utf8), sample: "cameras/Casio_EX-S1.jpg"),
                Library.Asset(name: Array("IMG_E0003".utf8), source: Array("A/IMG_E0003.JPG".utf8), sample: "formats/Nikon_D1X_AdobeRGB.jpg"),
            ]),
        ])

        /// Width over height of the JPEG at `path`, as exiftool reads it.
        static func aspect(_ path: [UInt8]) -> Double? {
            let size = Command.run("exiftool", ["-s3", "-ImageSize", String(decoding: path, as: UTF8.self)]).stdout
            let sides = String(decoding: size, as: UTF8.self).split { $0 == "x" || $0 == "\n" }.compactMap { Double($0) }
            return sides.count == 2 ? sides[0] / sides[1] : nil
        }

        @Test func anEditIsShownByItsOriginalsAsset() throws {
            try withScratch(Self.library, changesSource: true) { scratch in
                let album = scratch.source + "/A"
                let shot = Command.run("exiftool", ["-q", "-overwrite_original", "-DateTimeOriginal=2024:03:05 10:00:00", "-Make=Apple",
                                                    "-Model=iPhone 12", album + "/IMG_0003.JPG", album + "/IMG_E0003.JPG"])
                #expect(shot.status == 0, "exiftool: \(shot.err)")
                try RawFiles.write(Array("<?xml version=\"1.0\"?><plist/>".utf8), to: scratch.sourceBytes / "A" / "IMG_0003.AAE")
                let mount = try scratch.mount()
                let asset = mount.groups / "A" / "IMG_0003"
                let paired = eventually(timeout: 20) { RawFiles.names(in: mount.groups / "A")?.map { String(decoding: $0, as: UTF8.self) }.sorted() == ["IMG_0003", "thumbnail.jpg"] }
                #expect(paired, "groups/A: \(RawFiles.names(in: mount.groups / "A")?.map { String(decoding: $0, as: UTF8.self) } ?? [])")
                #expect(try RawFiles.extendedAttribute("user.assetfs.edited", of: asset).get().text == "A/IMG_E0003.JPG")
                #expect(try RawFiles.extendedAttribute("user.assetfs.source", of: asset).get().text == "A/IMG_0003.JPG")
                #expect(try RawFiles.read(asset / "original.jpg").get() == RawFiles.read(scratch.sourceBytes / "A" / "IMG_0003.JPG").get())
                #expect(try RawFiles.read(asset / "edited.jpg").get() == RawFiles.read(scratch.sourceBytes / "A" / "IMG_E0003.JPG").get())
                #expect(RawFiles.names(in: asset)?.map { String(decoding: $0, as: UTF8.self) } == ["thumbnail.jpg", "fullscreen.jpg", "original.jpg", "edited.jpg"])
                // The thumbnail is the edit's picture (200x130), not the original's (640x480).
                let thumbnail = try #require(Self.aspect(asset / "thumbnail.jpg"))
                #expect(abs(thumbnail - 200.0 / 130) < 0.05, "thumbnail aspect \(thumbnail)")
                let located = LocateTests.locate(scratch, [album + "/IMG_E0003.JPG"])
                #expect(located.status == 0 && located.out == mount.point + "/groups/A/IMG_0003/edited.jpg\n", "\(located.out) \(located.err)")
                let dated = Command.run("find", [mount.point + "/dates", "-mindepth", "3", "-maxdepth", "3"]).stdout
                #expect(String(decoding: dated, as: UTF8.self).split(separator: "\n").map(String.init) == ["\(mount.point)/dates/2024/2024-03-05/IMG_0003"])
                #expect(Self.aspect(mount.groups / "A" / "thumbnail.jpg").map { abs($0 - 200.0 / 130) < 0.05 } == true, "the album's poster shows the edit")

                // The edit gone, the original is a plain asset again: its own picture, no edited.jpg.
                #expect(unlink(album + "/IMG_E0003.JPG") == 0)
                let unpaired = eventually(timeout: 20) { statErrno(asset / "edited.jpg") == ENOENT }
                #expect(unpaired, "edited.jpg still there")
                #expect((try? RawFiles.extendedAttribute("user.assetfs.edited", of: asset).get()) == nil)
                let own = try #require(Self.aspect(asset / "thumbnail.jpg"))
                #expect(abs(own - 640.0 / 480) < 0.05, "thumbnail aspect \(own) after the edit went")
            }
        }
    }
}
