import Containers
import Foundation
import Posix
import Testing
import Video
@testable import Renditions

/// Posters of clips made at run time by ffmpeg (lavfi test sources, libx264, libx265): anamorphic
/// pixels, interlaced fields, a black opening, an open GOP.
@Suite struct GeneratedVideoTests {
    private func make(_ arguments: [String], _ name: String, codec: [String] = ["-c:v", "libx264"],
                      _ body: (String) throws -> Void) throws {
        let directory = try Tools.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent(name).path
        let output = try Tools.run(["ffmpeg", "-v", "error"] + arguments + codec + ["-pix_fmt", "yuv420p"] + [path])
        try #require(output.status == 0, "\(output.stderr)")
        try body(path)
    }

    private func poster(_ path: String, side: Int = 256) throws -> Rendition {
        let file = try OwnedFileDescriptor.openReadOnly(FilePath(path))
        return try VideoPoster().render(file.descriptor, spec: RenditionSpec(longestSide: side), name: path)
    }

    /// An HEVC MP4 whose track header and sample entry claim 65535x65535 over a 216x384 picture (its
    /// parameter sets', which ffmpeg decodes): the size reported and the pixel cap are the
    /// decoder's, not the container's claim (main refused it: "image too large: 65535x65535").
    @Test func theDecodersSizeIsTheOneThatCounts() throws {
        try make(["-f", "lavfi", "-i", "testsrc=s=216x384:d=1", "-x265-params", "log-level=error", "-tag:v", "hvc1"], "claimed.mp4",
                 codec: ["-c:v", "libx265"]) { (path: String) throws in
            var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            let header = try #require(bytes.firstRange(ofBytes: Array("tkhd".utf8))?.lowerBound) - 4
            let headerEnd = header + Int(bytes[header..<header + 4].reduce(0) { $0 << 8 | UInt32($1) })
            bytes.replaceSubrange(headerEnd - 8..<headerEnd, with: [0xFF, 0xFF, 0, 0, 0xFF, 0xFF, 0, 0])  // 16.16 fixed point
            let entry = try #require(bytes.firstRange(ofBytes: Array("hvc1".utf8))?.lowerBound)
            bytes.replaceSubrange(entry + 28..<entry + 32, with: [0xFF, 0xFF, 0xFF, 0xFF])  // VisualSampleEntry width, height
            let claimed = try OwnedFileDescriptor.memoryFile(holding: bytes)
            let summary = try VideoSummary.read(claimed.descriptor, name: "claimed.mp4")
            #expect(summary.uprightSize == PixelSize(width: 216, height: 384))
            let rendition = try VideoPoster().render(claimed.descriptor, spec: RenditionSpec(longestSide: 256), name: "claimed.mp4")
            #expect(rendition.size == PixelSize(width: 144, height: 256))
        }
    }

    /// 320x240 stored with 2:1 pixels is shown 640x240.
    @Test func anamorphicVideoIsShownAtItsDisplayWidth() throws {
        try make(["-f", "lavfi", "-i", "testsrc=s=320x240:d=1", "-vf", "setsar=2"], "sar.mp4") { (path: String) throws in
            #expect(try poster(path).size == PixelSize(width: 256, height: 96))
            #expect(try poster(path, side: 1920).size == PixelSize(width: 640, height: 240))
        }
    }

    /// A black opening (2 s) is passed over: the poster is the picture after it.
    @Test func aBlackOpeningIsSkipped() throws {
        try make(["-f", "lavfi", "-i", "color=black:s=320x240:d=2:r=25", "-f", "lavfi", "-i", "testsrc=s=320x240:d=8:r=25",
                  "-filter_complex", "[0][1]concat=n=2:v=1", "-g", "25"], "opening.mp4") { (path: String) throws in
            let pixels = try Tools.djpeg(poster(path).jpeg)
            let mean = Double(pixels.samples.reduce(0) { $0 + Int($1) }) / Double(pixels.samples.count)
            #expect(mean > 60, "mean \(mean): not the black opening")
        }
    }

    /// Interlaced fields of a moving picture woven into one frame comb; the poster reads one field.
    /// Combing is measured as the mean difference between each row and the average of its
    /// neighbours, against ffmpeg's top field scaled to the frame's height and its woven frame.
    /// Measured: 0.62 here, 0.57 for the top field, 2.21 for the woven frame.
    @Test func interlacedFramesDoNotComb() throws {
        try make(["-f", "lavfi", "-i", "testsrc2=s=720x576:r=50:d=2", "-vf", "tinterlace=interleave_top,setfield=tff",
                  "-flags", "+ildct+ilme", "-x264opts", "tff=1"], "interlaced.mp4") { (path: String) throws in
            let ours = try Tools.djpeg(poster(path, side: 720).jpeg)
            func frame(_ filters: String) throws -> PNM {
                let output = try Tools.run(["ffmpeg", "-v", "error", "-i", path, "-frames:v", "1", "-vf",
                                            filters + ",scale=720:576:flags=lanczos+accurate_rnd+full_chroma_int", "-pix_fmt", "rgb24",
                                            "-f", "image2pipe", "-c:v", "ppm", "-"])
                return try PNM(output.stdout)
            }
            let field = try frame("field=top"), woven = try frame("null")
            #expect(combing(ours) < combing(woven) / 2, "ours \(combing(ours)), woven \(combing(woven)), one field \(combing(field))")
            #expect(combing(ours) < combing(field) * 1.5)
        }
    }

    /// x265's default open GOPs: the keyframe at 10 % (1 s) is a CRA picture whose reference set
    /// names 4 earlier pictures, which the decoder makes up when it starts there (as one-row
    /// stand-ins: video_bridge.c). The poster is still that picture: the same pixels as frame 25
    /// decoded by ffmpeg from the start (with its real references), scaled by swscale with the
    /// poster's flags, saved as PNG and rendered as a photo. Measured: 0.0 from it, 4.9 and 5.9
    /// from the frames beside it.
    @Test func anOpenGOPKeyframeIsThePictureItself() throws {
        try make(["-f", "lavfi", "-i", "testsrc2=s=320x240:r=25:d=10"], "open-gop.mp4",
                 codec: ["-c:v", "libx265", "-preset", "ultrafast", "-x265-params", "keyint=25:log-level=error"]) { (path: String) throws in
            let ours = try Tools.djpeg(poster(path, side: 320).jpeg)
            func frame(_ number: Int) throws -> PNM {
                let png = path + ".\(number).png"
                let output = try Tools.run(["ffmpeg", "-v", "error", "-i", path, "-frames:v", "1", "-vf",
                                            "select=eq(n\\,\(number)),scale=320:240:flags=lanczos+accurate_rnd+full_chroma_int",
                                            "-pix_fmt", "rgb24", png])
                try #require(output.status == 0, "\(output.stderr)")
                let file = try OwnedFileDescriptor.openReadOnly(FilePath(png))
                return try Tools.djpeg(Renderer().render(file.descriptor, spec: RenditionSpec(longestSide: 320), name: png).jpeg)
            }
            let before = try frame(24), keyframe = try frame(25), after = try frame(26)
            #expect(difference(ours, keyframe) < 0.5, "\(difference(ours, keyframe)) from the keyframe")
            #expect(min(difference(ours, before), difference(ours, after)) > 2)
        }
    }

    private func difference(_ a: PNM, _ b: PNM) -> Double {
        guard a.samples.count == b.samples.count else { return .infinity }
        return Double(zip(a.samples, b.samples).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(a.samples.count)
    }

    private func combing(_ image: PNM) -> Double {
        let row = image.width * image.channels
        var total = 0.0
        for y in 1..<(image.height - 1) {
            for i in 0..<row {
                let above = Double(image.samples[(y - 1) * row + i]), below = Double(image.samples[(y + 1) * row + i])
                total += abs(Double(image.samples[y * row + i]) - (above + below) / 2)
            }
        }
        return total / Double((image.height - 2) * row)
    }
}
