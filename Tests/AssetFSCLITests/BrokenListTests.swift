import Foundation
import Glibc
import Testing

extension Mounted {
    /// `stats` and `assetfs broken` say what the mount shows now: the asset folders that have a
    /// `user.assetfs.error`, the same after a remount (their failures then come from the cache),
    /// and assets as their folders (a Live Photo's movie is part of its still's).
    @Suite struct BrokenListTests {
        static let library = Library(sourceName: "Photos", albums: [
            Library.Album(name: Array("Mixed".utf8), assets: [
                Library.Asset(name: Array("a-good".utf8), source: Array("Mixed/a-good.jpg".utf8), sample: "cameras/Casio_EX-S1.jpg"),
                Library.Asset(name: Array("clip".utf8), source: Array("Mixed/clip.mov".utf8), sample: "video/iPhone6_gps_rot90.mov", original: "original.mov"),
                Library.Asset(name: Array("moving".utf8), source: Array("Mixed/moving.heic".utf8), sample: "motion/Android_motion_photo.heic", original: "original.heic"),
                Library.Asset(name: Array("IMG_1".utf8), source: Array("Mixed/IMG_1.HEIC".utf8), sample: "formats/iPhone_XR_irot.heic", original: "original.heic"),
            ] + BrokenPhotoTests.broken.map { sample in
                let stem = String(sample.split(separator: "/").last!.dropLast(4))
                return Library.Asset(name: Array(stem.utf8), source: Array("Mixed/\(stem).jpg".utf8), sample: sample)
            }),
        ])

        @Test func statsAndTheBrokenListAreWhatTheAssetFoldersSayAndOutliveAMount() throws {
            try withScratch(Self.library, changesSource: true) { scratch in
                // A Live Photo: the still gets its movie's content identifier (the fixtures hold no pair).
                try RawFiles.write(try TestData.contents("video/iPhone6s_livephoto.mov"), to: scratch.sourceBytes / "Mixed" / "IMG_1_HEVC.MOV")
                let tagged = Command.run("exiftool", ["-q", "-overwrite_original", "-Apple:MediaGroupUUID=E905E6C6-C747-4805-942F-9904A0281F02",
                                                      scratch.source + "/Mixed/IMG_1.HEIC"])
                #expect(tagged.status == 0, "exiftool: \(tagged.err)")
                var mount = try scratch.mount()
                let album = mount.groups / "Mixed"
                #expect(eventually(timeout: 30) { (try? mount.stats()).map { $0.livePhotos == 1 && $0.motionPhotos == 1 } ?? false },
                        "the Live Photo paired and the Motion Photo read: \(String(describing: try? mount.stats()))")
                let assets = (RawFiles.names(in: album) ?? []).filter { $0 != Array("thumbnail.jpg".utf8) }
                #expect(assets.count == 7, "IMG_1_HEVC is IMG_1's motion.mov, not an asset: \(assets.map(\.text))")
                for asset in assets { _ = RawFiles.read(album / asset / "thumbnail.jpg") }

                let expected = Self.errors(in: mount, assets: assets)
                #expect(expected.count == BrokenPhotoTests.broken.count, "\(expected)")
                for line in expected {
                    #expect(line.hasPrefix("Mixed/") && !line.contains(scratch.path), "named inside SOURCE: \(line)")
                }
                try Self.expectCounts(mount, broken: expected.count)
                let listed = AssetFS.run(["broken", "-o", "cache=\(scratch.cache)", mount.point], timeout: 60)
                #expect(listed.status == 0 && Self.lines(listed.out) == expected, "assetfs broken MOUNTPOINT: \(listed.out) \(listed.err)")

                mount.unmount()
                mount = try scratch.mount()
                // Before anything is read again: the failures come from the cache, counted.
                try Self.expectCounts(mount, broken: expected.count)
                #expect(Self.errors(in: mount, assets: assets) == expected)
                let again = AssetFS.run(["broken", "-o", "cache=\(scratch.cache)", scratch.source], timeout: 60)
                #expect(again.status == 0 && Self.lines(again.out) == expected, "assetfs broken SOURCE: \(again.out) \(again.err)")
                let raw = AssetFS.run(["broken", "-0", "-o", "cache=\(scratch.cache)", scratch.source], timeout: 60)
                #expect(raw.stdout.split(separator: 0).count == expected.count && raw.stdout.last == 0, "-0: \(raw.out)")
            }
        }

        /// `reason<TAB>groups/Mixed/<asset>` for each asset folder with a `user.assetfs.error`, sorted.
        static func errors(in mount: Mount, assets: [[UInt8]]) -> [String] {
            assets.compactMap { asset -> String? in
                guard let reason = try? RawFiles.extendedAttribute("user.assetfs.error", of: mount.groups / "Mixed" / asset).get() else { return nil }
                return String(decoding: reason, as: UTF8.self) + "\tgroups/Mixed/" + asset.text
            }.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        }

        static func lines(_ text: String) -> [String] {
            text.split(separator: "\n").map(String.init).sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        }

        static func expectCounts(_ mount: Mount, broken: Int, sourceLocation: SourceLocation = #_sourceLocation) throws {
            let stats = try mount.stats()
            #expect(stats.broken == broken && stats.assets == 7 && stats.videos == 1 && stats.livePhotos == 1 && stats.motionPhotos == 1,
                    "broken \(String(describing: stats.broken)) assets \(stats.assets) videos \(String(describing: stats.videos)) live \(String(describing: stats.livePhotos)) motion \(String(describing: stats.motionPhotos))",
                    sourceLocation: sourceLocation)
        }
    }
}
