import CBridgeFailure
import Containers
import CVideo
import Foundation
import Posix
import TestFixtures
import Testing
@testable import Video

/// FFmpeg's reader on its own: what a container says without a frame decoded, the display shape
/// of anamorphic and turned video, and how the bridge's failures are told apart. Every video
/// fixture against expectations.csv is in RenditionsTests' VideoSummaryTests and VideoPosterTests.
@Suite struct VideoReaderTests {
    func summary(_ relative: String) throws -> VideoSummary {
        let file = try OwnedFileDescriptor.openReadOnly(FilePath(Fixtures.path(relative)))
        return try VideoSummary.read(file.descriptor, name: relative)
    }

    /// A phone's portrait clip is stored landscape with a display matrix turning it 90° clockwise.
    @Test func aTurnedClipIsUprightAndSaysItsTurn() throws {
        let summary = try summary("video/iPhone6_gps_rot90.mov")
        #expect(summary.hasVideo && summary.codec == "h264" && summary.audioCodec == "aac")
        #expect(summary.uprightSize == PixelSize(width: 320, height: 568) && summary.rotation == 90 && !summary.mirrored)
        #expect(summary.tags["com.apple.quicktime.location.ISO6709"] != nil)
    }

    /// A negative determinant: turned and mirrored, and still stood on its side.
    @Test func aMirroredTurnIsUprightToo() throws {
        let summary = try summary("video/rotate_and_reflect.mp4")
        #expect(summary.uprightSize == PixelSize(width: 720, height: 1080) && summary.rotation == 90 && summary.mirrored)
    }

    @Test func soundOnlyHasNoPictures() throws {
        let summary = try summary("video/audio_only.mp4")
        #expect(!summary.hasVideo && summary.uprightSize == nil && summary.codec == nil && summary.audioCodec != nil)
    }

    /// A file FFmpeg cannot open is the content's fault, never a crash.
    @Test func notAVideoIsCorrupt() throws {
        let file = try OwnedFileDescriptor.memoryFile(holding: Array("this is no movie at all".utf8))
        let error = #expect(throws: VideoError.self) { try VideoSummary.read(file.descriptor, name: "text") }
        #expect(error?.kind == .corrupt || error?.kind == .unsupported, "\(String(describing: error))")
    }

    /// Anamorphic video is shown at its display width (PAL 16:9: 720x576 at 64:45 → 1024x576).
    @Test func theSampleAspectWidensTheDisplay() {
        func stream(_ aspect: (Int, Int)?) -> VideoDecoder.Stream {
            VideoDecoder.Stream(size: PixelSize(width: 720, height: 576), sampleAspect: aspect, displayMatrix: nil, bits: 8, transfer: 1)
        }
        #expect(stream((64, 45)).displaySize(of: PixelSize(width: 720, height: 576)) == PixelSize(width: 1024, height: 576))
        #expect(stream((1, 1)).displaySize(of: PixelSize(width: 720, height: 576)) == PixelSize(width: 720, height: 576))
        #expect(stream(nil).displaySize(of: PixelSize(width: 360, height: 288)) == PixelSize(width: 360, height: 288))
        #expect(stream((0, 1)).displaySize(of: PixelSize(width: 720, height: 576)) == PixelSize(width: 720, height: 576))
    }

    /// A read error or a timeout may pass (unreadable: tried again later); the rest is the file's.
    @Test func theBridgesFailuresAreToldApart() {
        #expect(VideoError.bridge(Int32(BRIDGE_FAILURE_READ), "read error: Input/output error", path: "a").kind == .unreadable)
        #expect(VideoError.bridge(Int32(BRIDGE_FAILURE_CANCELLED), "timed out (x)", path: "a")
                == VideoError(.unreadable, path: "a", reason: "timed out (x)"))
        #expect(VideoError.bridge(Int32(BRIDGE_FAILURE_UNSUPPORTED), "unsupported codec", path: "a").kind == .unsupported)
        #expect(VideoError.bridge(Int32(BRIDGE_FAILURE_INCOMPLETE), "incomplete file", path: "a").kind == .corrupt)
        #expect(VideoError.bridge(Int32(BRIDGE_FAILURE_CORRUPT), "Invalid data found when processing input", path: "a").kind == .corrupt)
        #expect(VideoError.noPictures(path: "memo.m4a").kind == .noPictures)
    }

    /// A MOV cut before its index (`moov`, written last by phones and cameras), as while it is
    /// being copied, says so; an MP4 whose box structure is broken (a `free` box of 3 bytes) does
    /// not. FFmpeg says "Invalid data found when processing input" for both.
    @Test func aFileCutBeforeItsIndexIsIncomplete() throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Fixtures.path("video/iPhone6_gps_rot90.mov"))))
        for length in [30_000, bytes.count - 6_000] {
            let cut = try OwnedFileDescriptor.memoryFile(holding: Array(bytes.prefix(length)))
            let error = #expect(throws: VideoError.self) { try VideoSummary.read(cut.descriptor, name: "cut.mov") }
            #expect(error?.kind == .corrupt)
            #expect(error?.description == "cut.mov: video: incomplete file (no moov box: still being copied or truncated)")
        }
        let broken = try OwnedFileDescriptor.openReadOnly(FilePath(Fixtures.path("video/malformed_free_box.mp4")))
        let error = #expect(throws: VideoError.self) { try VideoSummary.read(broken.descriptor, name: "broken.mp4") }
        #expect(error?.kind == .corrupt && error?.reason.contains("moov") == false, "\(String(describing: error))")
    }
}
