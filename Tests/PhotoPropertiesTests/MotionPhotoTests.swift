import Containers
import Foundation
import PhotoSource
import Posix
import Renditions
import TestFixtures
import Testing
@testable import PhotoProperties

/// Motion Photos' videos found by every route, their byte ranges checked against exiftool's
/// extraction or the range the file's own metadata names; a video claimed but cut off is none.
@Suite struct MotionPhotoTests {
    private func locate(_ relative: String) throws -> MotionPhoto.Video? {
        let file = try OwnedFileDescriptor.openReadOnly(FilePath(Fixtures.path(relative)))
        return MotionPhoto.locate(file.descriptor)
    }

    private func bytes(_ relative: String, _ video: MotionPhoto.Video) throws -> Data {
        let data = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path(relative)))
        return data.subdata(in: Int(video.offset)..<Int(video.offset + video.length))
    }

    /// The figures: exiftool -b -MotionPhotoVideo extracts 3,226,469 bytes at 452,284.
    @Test func samsungHEICMatchesExiftool() throws {
        let relative = "formats/Samsung_S22_irot_motion.heic"
        let video = try #require(try locate(relative))
        #expect(video == MotionPhoto.Video(offset: 452_284, length: 3_226_469, foundBy: .heifBox))
        #expect(try bytes(relative, video) == extracted(relative))
    }

    @Test func androidHEICMatchesExiftool() throws {
        let relative = "motion/Android_motion_photo.heic"
        let video = try #require(try locate(relative))
        #expect(video.length == 28_803)
        #expect(try bytes(relative, video) == extracted(relative))
    }

    /// Pixel: the Container:Directory's MotionPhoto item, Length 8730 from the end (ftyp at 131582).
    @Test func pixelJPEGFromTheContainerDirectory() throws {
        let video = try #require(try locate("motion/Pixel_motion_photo.jpg"))
        #expect(video == MotionPhoto.Video(offset: 131_582, length: 8730, foundBy: .containerDirectory))
    }

    /// Samsung: MicroVideoOffset 2582 from the end (22927 − 2582 = 20345, just after the
    /// "MotionPhoto_Data" marker at 20329) up to the SEF trailer. The trailer's own offsets are
    /// those of the file before its publisher shortened the image, so they lead nowhere here.
    @Test func samsungJPEGUpToItsTrailer() throws {
        let relative = "motion/Samsung_motion_photo.jpg"
        let video = try #require(try locate(relative))
        #expect(video.offset == 20_345 && video.foundBy == .microVideoOffset)
        let data = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path(relative)))
        #expect(Array(data[20_329..<20_345]) == Array("MotionPhoto_Data".utf8))
        #expect(Array(data[Int(video.offset + video.length)..<Int(video.offset + video.length) + 4]) == Array("SEFH".utf8))
    }

    @Test func aVideoClaimedButCutOffIsAPlainPhoto() throws {
        #expect(try locate("motion/Pixel_motion_photo_video_removed.jpg") == nil)
    }

    @Test(arguments: ["formats/iPhone_XR_irot.heic", "orientation/Landscape_6.jpg", "video/iPhone6s_livephoto.mov"])
    func plainFilesHaveNoMotion(_ relative: String) throws {
        #expect(try locate(relative) == nil)
    }

    /// The embedded MP4s of the HEICs are whole videos: their posters, from the byte range alone,
    /// have their shapes (ffprobe: H.264 80x60 with 27:64 pixels, shown 34x60 like its 9:16 still;
    /// HEVC 1440x1080 turned 90°). The JPEGs' MP4s were
    /// cut short by their publisher (no moov: ffmpeg cannot open them either).
    @Test(arguments: [("motion/Android_motion_photo.heic", PixelSize(width: 34, height: 60)),
                      ("formats/Samsung_S22_irot_motion.heic", PixelSize(width: 192, height: 256))])
    func theRangeIsAVideo(_ relative: String, _ size: PixelSize) throws {
        let video = try #require(try locate(relative))
        let memory = try OwnedFileDescriptor.memoryFile(holding: [UInt8](try bytes(relative, video)))
        #expect(try VideoPoster().render(memory.descriptor, spec: RenditionSpec(longestSide: 256), name: relative).size == size)
    }

    private func extracted(_ relative: String) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["exiftool", "-b", "-MotionPhotoVideo", Fixtures.path(relative)]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return data
    }
}

/// Apple Live Photo identifiers: the still's MakerNote tag 0x0011 against exiftool's
/// Apple:MediaGroupUUID, in a HEIC and in a JPEG given the HEIC's MakerNote, before and after
/// exiftool gives them the Live Photo MOV's identifier (made at run time, as the issue suggests).
@Suite struct LivePhotoTests {
    static let identifier = "E905E6C6-C747-4805-942F-9904A0281F02"
    static let heic = Fixtures.path("formats/iPhone_XR_irot.heic")

    @Test(arguments: ["formats/iPhone_XR_irot.heic", "orientation/Landscape_1.jpg"])
    func theStillsIdentifierIsRead(_ relative: String) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("assetfs-live-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: directory) }
        let copy = directory.appendingPathComponent((relative as NSString).lastPathComponent).path
        try FileManager.default.copyItem(atPath: Fixtures.path(relative), toPath: copy)
        if relative.hasSuffix(".jpg") {
            _ = try Exiftool.run(["exiftool", "-q", "-overwrite_original", "-TagsFromFile", Self.heic, "-Make", "-Model", "-MakerNotes", copy])
        }
        let before = try #require(try Exiftool.tags(path: copy, ["-Apple:MediaGroupUUID"])["Apple:MediaGroupUUID"])
        #expect(try identifier(copy) == before)
        _ = try Exiftool.run(["exiftool", "-q", "-overwrite_original", "-Apple:MediaGroupUUID=\(Self.identifier)", copy])
        #expect(try Exiftool.tags(path: copy, ["-Apple:MediaGroupUUID"])["Apple:MediaGroupUUID"] == Self.identifier)
        #expect(try identifier(copy) == Self.identifier)
    }

    @Test(arguments: ["video/iPhone6s_livephoto.mov", "orientation/Landscape_1.jpg", "formats/Samsung_S22_irot_motion.heic"])
    func othersHaveNone(_ relative: String) throws {
        #expect(try identifier(Fixtures.path(relative)) == nil)
    }

    private func identifier(_ path: String) throws -> String? {
        let file = try OwnedFileDescriptor.openReadOnly(FilePath(path))
        return LivePhoto.identifier(file.descriptor)
    }
}
