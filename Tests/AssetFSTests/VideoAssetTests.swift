import MountModel
import Glibc
import Posix
import TestFixtures
import Testing
@testable import AssetFS
import Catalog
import PhotoSource
import Renditions

/// Videos and Motion Photos through the filesystem, without a mount (the reliability suite's
/// `videos` check mounts them and reads them with ffprobe, cp and rsync).
@Suite struct VideoAssetTests {
    static func bytes(_ fixture: String) throws -> [UInt8] {
        let file = try OwnedFileDescriptor.openReadOnly(FilePath(Fixtures.path(fixture)))
        return try file.readToEnd()
    }

    /// A baseline JPEG's size, from its SOF0 segment (what our encoder writes).
    static func jpegSize(_ jpeg: [UInt8]) -> (width: Int, height: Int)? {
        var i = 2
        while i + 9 < jpeg.count, jpeg[i] == 0xFF {
            let length = Int(jpeg[i + 2]) << 8 | Int(jpeg[i + 3])
            if jpeg[i + 1] == 0xC0 { return (Int(jpeg[i + 7]) << 8 | Int(jpeg[i + 8]), Int(jpeg[i + 5]) << 8 | Int(jpeg[i + 6])) }
            i += 2 + length
        }
        return nil
    }

    func names(_ fs: AssetFileSystem, _ path: String) throws -> [String] {
        try fs.list(try fs.lookupPath(path).get().inode).get().map { String(decoding: $0.name, as: UTF8.self) }
    }

    func attribute(_ fs: AssetFileSystem, _ path: String, _ name: String) -> String? {
        guard let inode = try? fs.lookupPath(path).get().inode else { return nil }
        return (try? fs.extendedAttribute(inode, name: Array("user.assetfs.\(name)".utf8), as: .ofThisProcess).get())
            .map { String(decoding: $0, as: UTF8.self) }
    }

    /// A video is an asset: posters at the photo sizes, upright; its original its exact bytes under
    /// its own extension; its properties from the container. Sound alone is skipped.
    @Test func aVideoIsAnAssetWithPostersAndItsOriginal() throws {
        let fixture = Fixture(["Clips/portrait.mov": "video/iPhone6_gps_rot90.mov", "Clips/memo.mp4": "video/audio_only.mp4",
                               "Clips/still.jpg": "orientation/Landscape_1.jpg"])
        let fs = try fixture.fileSystem()
        #expect(try names(fs, "groups/Clips") == ["thumbnail.jpg", "portrait", "still"])
        #expect(try names(fs, "groups/Clips/portrait") == ["thumbnail.jpg", "fullscreen.jpg", "original.mov"])
        let original = try fs.readAll("groups/Clips/portrait/original.mov").get()
        #expect(original == (try Self.bytes("video/iPhone6_gps_rot90.mov")))
        for (name, longest) in [("thumbnail.jpg", 256), ("fullscreen.jpg", 1920)] {
            let attributes = try fs.lookupPath("groups/Clips/portrait/\(name)").get()
            let poster = try fs.readAll("groups/Clips/portrait/\(name)").get()
            #expect(poster.count == Int(attributes.size) && poster.starts(with: [0xFF, 0xD8]))
            let size = try #require(Self.jpegSize(poster))
            // A 90° clip of 568x320 stored pixels is a portrait poster, never upscaled.
            #expect(size.height > size.width && max(size.width, size.height) == min(longest, 568), "\(name): \(size)")
        }
        #expect(attribute(fs, "groups/Clips/portrait", "type") == "video/quicktime")
        #expect(attribute(fs, "groups/Clips/portrait", "codec") == "h264")
        #expect(attribute(fs, "groups/Clips/portrait", "duration") == "4.002")
        #expect(attribute(fs, "groups/Clips/portrait", "date_source") == "quicktime")
        #expect(attribute(fs, "groups/Clips/portrait", "width") == "320" && attribute(fs, "groups/Clips/portrait", "height") == "568")
        var skipped: [String: SkipReason] = [:]
        fs.catalog.read { $0.forEachSkipped { path, reason in skipped[path.description] = reason } }
        #expect(skipped == ["Clips/memo.mp4": .audioOnly])
        let stats = String(decoding: try fs.extendedAttribute(1, name: MountLayout.statsAttribute, as: .ofThisProcess).get(), as: UTF8.self)
        #expect(stats.contains("\"videos\":1") && stats.contains("\"posters\":2") && stats.contains("\"skipped_audio_only\":1"), "\(stats)")
    }

    /// An album of videos only has a poster (its first video's), and its videos are in the size
    /// views and, once their dates are read, in the timeline like photos.
    @Test func anAlbumOfVideosOnlyHasAPosterAndItsVideosAreInEveryView() throws {
        let fixture = Fixture(["Clips/a.mp4": "video/Android_gps_3frames.mp4", "Clips/b.mov": "video/iPhone6_gps_rot90.mov"])
        let fs = try fixture.fileSystem()
        let poster = try fs.readAll("groups/Clips/thumbnail.jpg").get()
        #expect(poster == (try fs.readAll("groups/Clips/a/thumbnail.jpg").get()) && poster.starts(with: [0xFF, 0xD8]))
        #expect(try names(fs, "thumbnails/Clips") == ["a.jpg", "b.jpg"] && (try names(fs, "fullscreen/Clips")) == ["a.jpg", "b.jpg"])
        #expect(try fs.readAll("thumbnails/Clips/b.jpg").get() == (try fs.readAll("groups/Clips/b/thumbnail.jpg").get()))
        fs.readPendingProperties()
        let years = try names(fs, "dates")
        #expect(!years.isEmpty)
        let days = try years.flatMap { year in try names(fs, "dates/\(year)").map { "dates/\(year)/\($0)" } }
        #expect(try days.flatMap { try names(fs, $0) }.sorted() == ["a", "b"])
    }

    /// A video FFmpeg cannot open is a broken asset, not a skipped file: its original still reads.
    @Test func aMalformedVideoIsBrokenAndItsOriginalReads() throws {
        let fixture = Fixture(["V/bad.mp4": "video/malformed_free_box.mp4"])
        let fs = try fixture.fileSystem()
        #expect(try names(fs, "groups/V") == ["thumbnail.jpg", "bad"])
        // The default `broken=placeholder` shows the placeholder poster.
        #expect((try? fs.readAll("groups/V/bad/thumbnail.jpg").get()) == Renderer.placeholder)
        #expect(attribute(fs, "groups/V/bad", "error")?.contains("cannot open the container") == true)
        #expect(try fs.readAll("groups/V/bad/original.mp4").get() == (try Self.bytes("video/malformed_free_box.mp4")))
    }

    /// A Motion Photo's asset folder also holds `motion.mp4`, the embedded MP4 as a byte range of
    /// its original (Samsung's HEIC: the `mpvd` box exiftool extracts, 3,226,469 bytes at 452,284);
    /// a photo whose XMP claims a video that is not there has none.
    @Test func aMotionPhotoShowsItsVideo() throws {
        let fixture = Fixture(["M/moving.heic": "formats/Samsung_S22_irot_motion.heic",
                               "M/removed.jpg": "motion/Pixel_motion_photo_video_removed.jpg"])
        let fs = try fixture.fileSystem()
        #expect(try names(fs, "groups/M/moving") == ["thumbnail.jpg", "fullscreen.jpg", "original.heic", "motion.mp4"])
        #expect(try names(fs, "groups/M/removed") == ["thumbnail.jpg", "fullscreen.jpg", "original.jpg"])
        #expect(fs.lookupPath("groups/M/removed/motion.mp4") == .failure(.notFound))
        let motion = try fs.readAll("groups/M/moving/motion.mp4").get()
        #expect(motion == Array(try Self.bytes("formats/Samsung_S22_irot_motion.heic")[452_284..<(452_284 + 3_226_469)]))
        #expect(try fs.lookupPath("groups/M/moving/motion.mp4").get().size == 3_226_469)
        #expect(attribute(fs, "groups/M/moving", "motion") == "motion.mp4")
        #expect(attribute(fs, "groups/M/removed", "motion") == nil)
    }

    /// An Apple Live Photo: a HEIC and a MOV sharing a content identifier in one folder (the MOV
    /// renamed as iCloud exports do) are one asset, the still's, with `motion.mov` the MOV's
    /// bytes; the MOV leaves the album, its views and the timeline. The same MOV in a folder
    /// without its still stays a video. The pair is made at run time (exiftool gives the still
    /// the MOV's identifier), as the shared fixtures hold no pair.
    @Test func aLivePhotoIsOneAssetWithItsMovie() throws {
        let fixture = Fixture(["L/IMG_1.HEIC": "formats/iPhone_XR_irot.heic", "L/IMG_1_HEVC.MOV": "video/iPhone6s_livephoto.mov",
                               "L/clip.mov": "video/iPhone6_gps_rot90.mov", "N/IMG_1_HEVC.MOV": "video/iPhone6s_livephoto.mov"])
        #expect(system("exiftool -q -overwrite_original -Apple:MediaGroupUUID=E905E6C6-C747-4805-942F-9904A0281F02 '\(fixture.source)/L/IMG_1.HEIC'") == 0)
        let fs = try fixture.fileSystem()
        #expect(fs.readPendingProperties() == 4)
        #expect(try names(fs, "groups/L") == ["thumbnail.jpg", "IMG_1", "clip"])
        #expect(try names(fs, "groups/L/IMG_1") == ["thumbnail.jpg", "fullscreen.jpg", "original.heic", "motion.mov"])
        #expect(try fs.readAll("groups/L/IMG_1/motion.mov").get() == (try Self.bytes("video/iPhone6s_livephoto.mov")))
        #expect(attribute(fs, "groups/L/IMG_1", "motion") == "motion.mov")
        #expect(fs.lookupPath("groups/L/IMG_1_HEVC") == .failure(.notFound))
        #expect(try names(fs, "thumbnails/L") == ["IMG_1.jpg", "clip.jpg"])
        #expect(try names(fs, "groups/N") == ["thumbnail.jpg", "IMG_1_HEVC"])
        let day = try #require(attribute(fs, "groups/L/IMG_1_HEVC", "date") ?? attribute(fs, "groups/N/IMG_1_HEVC", "date"))
        let dayFolder = "dates/\(day.prefix(4))/\(day.prefix(10))"
        let dated = try names(fs, dayFolder)
        #expect(dated.count == 1, "the paired movie leaves its day; the unpaired copy stays: \(dated)")
        #expect(dated.first.flatMap { attribute(fs, "\(dayFolder)/\($0)", "source") } == "N/IMG_1_HEVC.MOV")
    }

    /// `motion.mov` is the movie's file: a user who may read the still but not the movie neither
    /// sees nor opens it (a view is a new path to a file, never a new right).
    @Test func aLivePhotosMovieIsClosedToWhoCannotReadIt() throws {
        let fixture = Fixture(["L/IMG_1.HEIC": "formats/iPhone_XR_irot.heic", "L/IMG_1.MOV": "video/iPhone6s_livephoto.mov"])
        #expect(system("exiftool -q -overwrite_original -Apple:MediaGroupUUID=E905E6C6-C747-4805-942F-9904A0281F02 '\(fixture.source)/L/IMG_1.HEIC'") == 0)
        _ = system("chmod -R go+rX '\(fixture.folder)'")
        _ = fixture.source.appending(FilePath("L/IMG_1.MOV")).withCString { chmod($0, 0o600) }
        let fs = try fixture.fileSystem()
        _ = fs.readPendingProperties()
        let stranger = Credentials(userID: 65534, groupID: 65534)
        let asset = try fs.lookupPath("groups/L/IMG_1").get()
        func names(as caller: Credentials) throws -> [String] {
            try fs.list(asset.inode, after: 0, limit: 10, as: caller).get().map { String(decoding: $0.name, as: UTF8.self) }
        }
        #expect(try names(as: .ofThisProcess) == ["thumbnail.jpg", "fullscreen.jpg", "original.heic", "motion.mov"])
        #expect(try names(as: stranger) == ["thumbnail.jpg", "fullscreen.jpg", "original.heic"])
        let motion = try fs.lookupPath("groups/L/IMG_1/motion.mov").get()
        #expect(wait { fs.open(motion.inode, as: stranger, completion: $0) }.map { _ in true } == .failure(.permissionDenied))
    }
}

