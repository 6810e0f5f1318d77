import Foundation
import Posix
import Testing
@testable import Renditions

/// The bounds of a video render: the pixel cap and the shared decode memory budget before
/// anything is decoded, the byte budget and the deadline while the file is read.
@Suite struct VideoLimitsTests {
    let file = "video/Android_gps_3frames.mp4"  // 1920x1080 H.264

    private func render(_ poster: VideoPoster) throws -> Rendition {
        let source = try FileDescriptor.openReadOnly(TestData.filePath(file))
        defer { source.close() }
        return try poster.render(source, spec: RenditionSpec(longestSide: 256), name: file)
    }

    private func failure(_ poster: VideoPoster) -> RenditionError? {
        do { _ = try render(poster); return nil } catch { return error as? RenditionError }
    }

    @Test func framesOverThePixelCapAreRefused() {
        let error = failure(VideoPoster(renderer: Renderer(limits: RenderLimits(maxPixels: 1920 * 1080 - 1))))
        #expect(error?.kind == .tooManyPixels, "\(String(describing: error))")
    }

    /// The decode draws on the budget the image decoders share; what it reserved is given back.
    @Test func theSharedMemoryBudgetIsHonoured() throws {
        let small = MemoryBudget(bytes: 8 << 20)
        #expect(failure(VideoPoster(renderer: Renderer(budget: small)))?.kind == .overMemoryBudget)
        let budget = MemoryBudget(bytes: 64 << 20)
        let held = try budget.reserve(40 << 20, wait: false)
        #expect(failure(VideoPoster(renderer: Renderer(budget: budget)))?.kind == .overMemoryBudget, "others hold it: refused at once")
        budget.release(held)
        _ = try render(VideoPoster(renderer: Renderer(budget: budget)))
        #expect(budget.unused == budget.capacity)
    }

    @Test func theByteBudgetStopsTheRead() {
        let error = failure(VideoPoster(limits: VideoLimits(byteBudget: 100_000)))
        #expect(error?.kind == .corrupt && error?.reason.contains("budget") == true, "\(String(describing: error))")
    }

    /// Past the deadline the read stops: a transient failure (EIO), tried again later.
    @Test func theDeadlineStopsTheRead() {
        let error = failure(VideoPoster(limits: VideoLimits(seconds: 0)))
        #expect(error?.kind == .unreadable && error?.reason.contains("timed out") == true, "\(String(describing: error))")
    }
}

/// Posters of clips made at run time by ffmpeg (lavfi test sources, libx264): anamorphic pixels,
/// interlaced fields, a black opening.
@Suite struct GeneratedVideoTests {
    private func make(_ arguments: [String], _ name: String, _ body: (String) throws -> Void) throws {
        let directory = try Tools.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent(name).path
        let output = try Tools.run(["ffmpeg", "-v", "error"] + arguments + ["-c:v", "libx264", "-pix_fmt", "yuv420p"] + [path])
        try #require(output.status == 0, "\(output.stderr)")
        try body(path)
    }

    private func poster(_ path: String, side: Int = 256) throws -> Rendition {
        let file = try FileDescriptor.openReadOnly(FilePath(path))
        defer { file.close() }
        return try VideoPoster().render(file, spec: RenditionSpec(longestSide: side), name: path)
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

/// Videos cut short at several points (index at the start or at the end, one stream or several):
/// each gives a poster or a content failure, quickly, never a crash, a hang or a read error.
@Suite struct TruncatedVideoTests {
    @Test(arguments: ["video/iPhone6_gps_rot90.mov", "video/Android_gps_3frames.mp4", "video/h264_ac3.mkv", "video/vp9_642x642.webm",
                      "video/h264_mp3.avi", "video/hdr10_pq_av1_portrait.mp4"])
    func truncatedVideosFailCleanly(_ relative: String) throws {
        let bytes = try #require(TestData.bytes(relative))
        for fraction in [0.02, 0.3, 0.6, 0.95] {
            let cut = Array(bytes.prefix(Int(Double(bytes.count) * fraction)))
            let outcome = withHangGuard(seconds: 30, "\(relative) cut to \(cut.count) bytes") { () -> String in
                guard let memory = try? FileDescriptor.memoryFile(holding: cut) else { return "no memory file" }
                defer { memory.close() }
                do {
                    _ = try VideoPoster().render(memory, spec: RenditionSpec(longestSide: 256), name: relative)
                    return "poster"
                } catch {
                    return (error as? RenditionError)?.isContentFailure == true ? "content failure" : "\(error)"
                }
            }
            #expect(["poster", "content failure"].contains(outcome?.value ?? "hang"), "\(relative) cut to \(cut.count) bytes: \(String(describing: outcome))")
        }
    }
}
