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

        /// Writes one shot's date and camera into the files at `paths`, as exiftool does.
        static func tagAsOneShot(_ paths: [String]) {
            let shot = Command.run("exiftool", ["-q", "-overwrite_original", "-DateTimeOriginal=2024:03:05 10:00:00", "-Make=Apple",
                                                "-Model=iPhone 12"] + paths)
            #expect(shot.status == 0, "exiftool: \(shot.err)")
        }

        static func names(_ path: [UInt8]) -> [String] {
            (RawFiles.names(in: path) ?? []).map { String(decoding: $0, as: UTF8.self) }
        }

        /// `assetfs warm` over a SOURCE no mount has read renders the pair once, from the edit:
        /// the mount then renders nothing for the asset's thumbnail.
        @Test func warmRendersTheEditOnly() throws {
            try withScratch(Self.library, changesSource: true) { scratch in
                Self.tagAsOneShot([scratch.source + "/A/IMG_0003.JPG", scratch.source + "/A/IMG_E0003.JPG"])
                let warm = AssetFS.run(["warm", "-o", "cache=\(scratch.cache)", scratch.source], timeout: 300)
                #expect(warm.status == 0 && warm.out.contains("rendered 1, already cached 0, failed 0 (1 rendition of 1 photo)"), "warm: \(warm.out) \(warm.err)")
                let mount = try scratch.mount()
                let thumbnail = try #require(Self.aspect(mount.groups / "A" / "IMG_0003" / "thumbnail.jpg"))
                #expect(abs(thumbnail - 200.0 / 130) < 0.05, "thumbnail aspect \(thumbnail)")
                #expect(try mount.stats().renders == 0)
            }
        }

        /// Issue 32 item 5 with a Live Photo: an iPhone export of an edited Live Photo
        /// (IMG_E0003.JPG, IMG_0003.HEIC, IMG_0003.MOV, IMG_0003.AAE) is one asset whose renditions
        /// show the edit, while motion.mov is still the MOV, original.heic the still and edited.jpg
        /// the edit.
        @Test func aLivePhotoWithAnEditIsOneAsset() throws {
            try withScratch(Self.library, changesSource: true) { scratch in
                let album = scratch.source + "/A"
                #expect(unlink(album + "/IMG_0003.JPG") == 0)
                try LivePhotoChangeTests.makeStill(at: album + "/IMG_0003.HEIC")
                try RawFiles.write(try TestData.contents("video/iPhone6s_livephoto.mov"), to: scratch.sourceBytes / "A" / "IMG_0003.MOV")
                try RawFiles.write(Array("<?xml version=\"1.0\"?><plist/>".utf8), to: scratch.sourceBytes / "A" / "IMG_0003.AAE")
                Self.tagAsOneShot([album + "/IMG_0003.HEIC", album + "/IMG_E0003.JPG"])
                let mount = try scratch.mount()
                let asset = mount.groups / "A" / "IMG_0003"
                let paired = eventually(timeout: 20) { Self.names(mount.groups / "A").sorted() == ["IMG_0003", "thumbnail.jpg"] && statErrno(asset / "edited.jpg") == 0 }
                #expect(paired, "groups/A: \(Self.names(mount.groups / "A")), its asset: \(Self.names(asset))")
                #expect(Self.names(asset) == ["thumbnail.jpg", "fullscreen.jpg", "original.heic", "edited.jpg", "motion.mov"])
                let source = scratch.sourceBytes / "A"
                #expect(try RawFiles.read(asset / "original.heic").get() == RawFiles.read(source / "IMG_0003.HEIC").get())
                #expect(try RawFiles.read(asset / "motion.mov").get() == RawFiles.read(source / "IMG_0003.MOV").get())
                #expect(try RawFiles.read(asset / "edited.jpg").get() == RawFiles.read(source / "IMG_E0003.JPG").get())
                #expect(try RawFiles.extendedAttribute("user.assetfs.motion_source", of: asset).get().text == "A/IMG_0003.MOV")
                #expect(try RawFiles.extendedAttribute("user.assetfs.edited", of: asset).get().text == "A/IMG_E0003.JPG")
                // The edit's picture (Nikon D1X, 200x130), not the still's (portrait 3024x4032).
                let thumbnail = try #require(Self.aspect(asset / "thumbnail.jpg"))
                #expect(abs(thumbnail - 200.0 / 130) < 0.05, "thumbnail aspect \(thumbnail)")
                for file in ["IMG_0003.MOV", "IMG_E0003.JPG"] {
                    let located = LocateTests.locate(scratch, [album + "/" + file])
                    #expect(located.status == 0 && located.out.hasPrefix(mount.point + "/groups/A/IMG_0003/"), "\(file): \(located.out) \(located.err)")
                }
            }
        }

        /// As a pair changes on a live mount, the kernel forgets the original's `edited.*` entry by
        /// name, so a path to it answers as the listing does: after tags are written into the
        /// original (a new version, paired again) and after the edit is exported again as a HEIC.
        @Test func editedFollowsItsEditByName() throws {
            try withScratch(Self.library, changesSource: true) { scratch in
                let album = scratch.source + "/A", source = scratch.sourceBytes / "A"
                Self.tagAsOneShot([album + "/IMG_0003.JPG", album + "/IMG_E0003.JPG"])
                let mount = try scratch.mount()
                let asset = mount.groups / "A" / "IMG_0003"
                let edit = try RawFiles.read(source / "IMG_E0003.JPG").get()
                #expect(eventually(timeout: 20) { (try? RawFiles.read(asset / "edited.jpg").get()) == edit }, "never paired")
                let tagged = Command.run("exiftool", ["-q", "-overwrite_original", "-Keywords=Norway", album + "/IMG_0003.JPG"])
                #expect(tagged.status == 0, "exiftool: \(tagged.err)")
                let again = eventually(timeout: 20) { (try? RawFiles.read(asset / "edited.jpg").get()) == edit }
                #expect(again, "edited.jpg by path: errno \(statErrno(asset / "edited.jpg")); listed: \(Self.names(asset))")
                let heic = scratch.path + "/IMG_E0003.HEIC"
                try RawFiles.write(try TestData.contents("formats/Nikon_D5300_small.heic"), to: Array(heic.utf8))
                Self.tagAsOneShot([heic])
                #expect(unlink(album + "/IMG_E0003.JPG") == 0)
                #expect(rename(heic, album + "/IMG_E0003.HEIC") == 0)
                let swapped = eventually(timeout: 20) { Self.names(asset).contains("edited.heic") }
                #expect(swapped, "listed: \(Self.names(asset))")
                #expect(statErrno(asset / "edited.jpg") == ENOENT)
                #expect(try RawFiles.read(asset / "edited.heic").get() == RawFiles.read(source / "IMG_E0003.HEIC").get())
            }
        }
    }
}
