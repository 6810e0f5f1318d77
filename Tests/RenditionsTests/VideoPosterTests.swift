import Containers
import Foundation
import Posix
import Video
import Testing
@testable import Renditions

/// Posters of every file in video/: upright and at the display shape expectations.csv states
/// (rotation, mirror, aspect), the same bytes every time, and the failures a scanner needs to tell
/// apart (audio only: skipped; malformed: broken).
@Suite struct VideoPosterTests {
    static let videos = TestData.expectations(in: "video")
    static let pictured = videos.filter { $0.upright != nil }

    private func poster(_ relative: String, side: Int = 256) throws -> Rendition {
        let file = try OwnedFileDescriptor.openReadOnly(TestData.filePath(relative))
        return try VideoPoster().render(file.descriptor, spec: RenditionSpec(longestSide: side), name: relative)
    }

    @Test func everySharedVideoIsHere() {
        #expect(Self.videos.count == 15)
        #expect(Self.pictured.count == 13)
    }

    @Test(arguments: pictured) func posterHasTheUprightShape(_ video: Expectation) throws {
        let upright = try #require(video.upright)
        for side in [256, 1920] {
            let rendition = try poster(video.file, side: side)
            #expect(rendition.size == upright.fitted(longestSide: side), "\(video.file) at \(side)")
            let pixels = try Tools.djpeg(rendition.jpeg)
            #expect(PixelSize(width: pixels.width, height: pixels.height) == rendition.size)
        }
    }

    @Test(arguments: pictured) func posterBytesAreTheSameEveryTime(_ video: Expectation) throws {
        #expect(try poster(video.file).jpeg == poster(video.file).jpeg, "\(video.file)")
    }

    @Test func audioOnlyIsRecognisedAsSuch() throws {
        #expect {
            try poster("video/audio_only.mp4")
        } throws: { error in
            let error = error as? RenditionError
            return error?.kind == .unrecognised && error == RenditionError(VideoError.noPictures(path: error?.path ?? ""))
        }
    }

    @Test func aMalformedVideoIsAContentFailure() throws {
        #expect {
            try poster("video/malformed_free_box.mp4")
        } throws: { error in
            guard let error = error as? RenditionError else { return false }
            return error.kind == .corrupt && error.isContentFailure && error.failsUnderAnySettings
        }
    }

    /// Every frame of black_10s.mp4 is black: its poster is a black picture, not a failure.
    @Test func anAllBlackVideoHasABlackPoster() throws {
        let pixels = try Tools.djpeg(poster("video/black_10s.mp4").jpeg)
        #expect((pixels.width, pixels.height) == (256, 192))
        #expect((pixels.samples.max() ?? 255) < 24)
    }

    /// A clip whose only keyframe is black (h264_mp3.avi: one keyframe, frame 0) or whose first
    /// keyframe is white (sample_qcif.3gp: keyframes at 0 and 3.0 s of 4.9 s) shows its picture,
    /// decoded forward from that keyframe: a logo from 0.5 s on. Luma's standard deviation over
    /// the poster: 22.8 and 11.7 (main: 0.0 and 0.2, one flat colour).
    @Test(arguments: ["video/h264_mp3.avi", "video/sample_qcif.3gp"]) func aUniformKeyframeIsNotThePoster(_ file: String) throws {
        let pixels = try Tools.djpeg(poster(file).jpeg)
        let luma = stride(from: 0, to: pixels.samples.count, by: 3).map {
            0.2126 * Double(pixels.samples[$0]) + 0.7152 * Double(pixels.samples[$0 + 1]) + 0.0722 * Double(pixels.samples[$0 + 2])
        }
        let mean = luma.reduce(0, +) / Double(luma.count)
        let deviation = (luma.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(luma.count)).squareRoot()
        #expect(deviation > 8, "\(file): luma deviation \(deviation), mean \(mean)")
    }

    /// A clip of three frames (0.1 s of video) still has a poster: its first frame.
    @Test func aThreeFrameClipGivesItsFirstFrame() throws {
        let ours = try Tools.djpeg(poster("video/Android_gps_3frames.mp4").jpeg)
        // Its matrix is unspecified: BT.709 for HD, as players guess (swscale alone would take BT.601).
        let first = try ffmpegFrame("video/Android_gps_3frames.mp4", filters: "scale=256:144:in_color_matrix=bt709:" + Self.scaler)
        let error = try #require(ours.meanAbsoluteError(first))
        #expect(error < 5, "mean difference \(error) from ffmpeg's first frame")
    }

    /// The display matrix is applied whole: a transpose (rotate and mirror) and a quarter turn,
    /// compared with ffmpeg's first frame put upright by an explicit filter, and not with the
    /// rotation-only reading.
    @Test(arguments: [("video/rotate_and_reflect.mp4", "transpose=cclock_flip", "transpose=clock"),
                      ("video/iPhone6_gps_rot90.mov", "transpose=clock", "transpose=cclock_flip")])
    func theDisplayMatrixIsAppliedWithItsMirror(_ file: String, _ right: String, _ wrong: String) throws {
        let ours = try Tools.djpeg(poster(file).jpeg)
        let size = "scale=\(ours.width):\(ours.height):" + Self.scaler
        let upright = try #require(ours.meanAbsoluteError(try ffmpegFrame(file, filters: right + "," + size)))
        let flipped = try #require(ours.meanAbsoluteError(try ffmpegFrame(file, filters: wrong + "," + size)))
        #expect(upright < 5 && flipped > upright * 3, "\(file): \(upright) from upright, \(flipped) from the mirror image")
    }

    /// The scaler the poster uses (swscale's Lanczos, exact rounding, chroma read at full
    /// resolution): with it, ffmpeg's frame differs from a poster by about what JPEG at quality 85
    /// takes away (a mean 3.9 per sample on the iPhone clip, against 3.9 for the JPEG alone).
    static let scaler = "flags=lanczos+accurate_rnd+full_chroma_int"

    /// ffmpeg's first video frame after `filters`, as RGB.
    func ffmpegFrame(_ relative: String, filters: String) throws -> PNM {
        let output = try Tools.run(["ffmpeg", "-v", "error", "-noautorotate", "-i", TestData.path(relative), "-frames:v", "1",
                                    "-vf", filters, "-pix_fmt", "rgb24", "-f", "image2pipe", "-c:v", "ppm", "-"])
        guard output.status == 0 else { throw PNM.Failure.tool("ffmpeg: \(output.stderr)") }
        return try PNM(output.stdout)
    }
}
