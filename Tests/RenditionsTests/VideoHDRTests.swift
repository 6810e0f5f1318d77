import Foundation
import Posix
import Testing
@testable import Renditions

/// HDR clips (HLG, Dolby Vision 8.4 read as its HLG base layer, PQ) tone-mapped to SDR, compared
/// with the same frame through ffmpeg's zscale + tonemap chains.
@Suite struct VideoHDRTests {
    static let clips = ["video/hlg10_1080p.mp4", "video/iPhone14Pro_dolbyvision_hlg_rot90.mov", "video/hdr10_pq_av1_portrait.mp4"]
    /// The same intent as `HDRTransfer`'s (160 cd/m² to SDR white; linear up to half of it, then
    /// rolled off to a 1000 cd/m² peak), on the brightest channel (`desat=0`).
    static let sameIntent = "zscale=t=linear:npl=160,format=gbrpf32le,zscale=p=bt709,tonemap=mobius:param=0.5:peak=6.25:desat=0,"
        + "zscale=t=iec61966-2-1:m=bt709:r=full"
    /// FFmpeg's usual chain (100 cd/m² to SDR white, Möbius from 0.3), which keeps hue and clips nothing.
    static let usual = "zscale=t=linear:npl=100,format=gbrpf32le,zscale=p=bt709,tonemap=tonemap=mobius:desat=0,"
        + "zscale=t=bt709:m=bt709:r=tv"

    /// Mean luma and contrast (luma's standard deviation) within 10 % of the same intent's. Measured
    /// at 256 px, mean/contrast, ours against zscale: HLG chart 151/76 against 148/74, Dolby Vision
    /// 186/66 against 188/64, PQ 149/68 against 149/66.
    @Test(arguments: clips) func toneMappedLikeZscale(_ file: String) throws {
        let ours = Self.luma(try Self.poster(file, side: 256))
        let zscale = Self.luma(try Self.ffmpegFrame(file, filters: Self.sameIntent, fitting: 256))
        #expect(abs(ours.mean - zscale.mean) <= 0.1 * zscale.mean, "\(file): mean luma \(ours.mean) against \(zscale.mean)")
        #expect(abs(ours.deviation - zscale.deviation) <= 0.1 * zscale.deviation,
                "\(file): contrast \(ours.deviation) against \(zscale.deviation)")
    }

    /// Colours keep their hue, highlights are not clipped and the picture is as bright: against
    /// ffmpeg's usual chain at the fullscreen size (issue 29's goals), the hue angle of saturated
    /// pixels (a channel spread over 80 in both) within 5 degrees on average, at most 1 % of the
    /// pixels with a channel at 255, the mean luma within 10 % (HLG -5 %, Dolby Vision -5 %, PQ
    /// -10 % at 160 cd/m² to SDR white; at BT.2408's 203 the PQ clip was 15 % darker). Measured at 1920
    /// px (JPEG read by djpeg): HLG chart 1.6 degrees over its 33 % saturated pixels (8.4 when
    /// rolled off channel by channel, its orange patch yellow), clipped 0.1 % (18.4 % channel by
    /// channel; zscale 0.0 %); Dolby Vision 0.1 % (7.7 %), PQ 0.1 % (under 1 %). The other two
    /// clips have no saturated pixels.
    @Test(arguments: clips) func hueIsKeptAndHighlightsAreNotClipped(_ file: String) throws {
        let ours = try Self.poster(file, side: 1920)
        let reference = try Self.ffmpegFrame(file, filters: Self.usual + ",scale=\(ours.width):\(ours.height)", fitting: nil)
        let clipped = stride(from: 0, to: ours.samples.count, by: 3).filter { ours.samples[$0..<$0 + 3].contains(255) }.count
        #expect(Double(clipped) <= 0.01 * Double(ours.width * ours.height), "\(file): \(clipped) pixels with a clipped channel")
        let (mine, usual) = (Self.luma(ours).mean, Self.luma(reference).mean)
        #expect(abs(mine - usual) <= 0.1 * usual, "\(file): mean luma \(mine) against ffmpeg's usual chain's \(usual)")
        var shifts: [Double] = []
        for i in stride(from: 0, to: ours.samples.count, by: 3) {
            let a = ours.samples[i..<i + 3].map(Double.init), b = reference.samples[i..<i + 3].map(Double.init)
            guard a.max()! - a.min()! > 80, b.max()! - b.min()! > 80 else { continue }
            let shift = abs(Self.hue(a) - Self.hue(b)).truncatingRemainder(dividingBy: 360)
            shifts.append(min(shift, 360 - shift))
        }
        if !shifts.isEmpty {
            let mean = shifts.reduce(0, +) / Double(shifts.count)
            #expect(mean <= 5, "\(file): hue \(mean) degrees from ffmpeg's over \(shifts.count) saturated pixels")
        }
        #expect(file != "video/hlg10_1080p.mp4" || shifts.count > ours.width * ours.height / 5, "the chart's saturated patches are compared")
    }

    /// Read as if SDR, the PQ clip is the "dull and grey" picture the issue describes.
    @Test func pqReadAsSDRIsDull() throws {
        let file = "video/hdr10_pq_av1_portrait.mp4"
        let ours = Self.luma(try Self.poster(file, side: 256))
        let plain = Self.luma(try Self.ffmpegFrame(file, filters: "null", fitting: 256))
        #expect(ours.deviation > plain.deviation * 1.8 && ours.mean > plain.mean + 25, "ours \(ours), as if SDR \(plain)")
    }

    static func poster(_ file: String, side: Int) throws -> PNM {
        let source = try OwnedFileDescriptor.openReadOnly(TestData.filePath(file))
        return try Tools.djpeg(VideoPoster().render(source.descriptor, spec: RenditionSpec(longestSide: side), name: file).jpeg)
    }

    /// ffmpeg's first frame (turned upright by ffmpeg's autorotate) through `filters`, fitted in a
    /// square of `fitting` px when given.
    static func ffmpegFrame(_ relative: String, filters: String, fitting: Int?) throws -> PNM {
        let fit = fitting.map { ",scale=\($0):\($0):force_original_aspect_ratio=decrease:flags=lanczos" } ?? ""
        let output = try Tools.run(["ffmpeg", "-v", "error", "-i", TestData.path(relative), "-frames:v", "1", "-vf",
                                    filters + ",format=rgb24" + fit, "-f", "image2pipe", "-c:v", "ppm", "-"])
        guard output.status == 0 else { throw PNM.Failure.tool("ffmpeg: \(output.stderr)") }
        return try PNM(output.stdout)
    }

    /// Hue angle in degrees of an RGB triple (the hexagonal projection's atan2).
    static func hue(_ rgb: [Double]) -> Double {
        atan2(3.0.squareRoot() * (rgb[1] - rgb[2]), 2 * rgb[0] - rgb[1] - rgb[2]) * 180 / .pi
    }

    static func luma(_ image: PNM) -> (mean: Double, deviation: Double) {
        let luma = stride(from: 0, to: image.samples.count, by: 3).map {
            0.2126 * Double(image.samples[$0]) + 0.7152 * Double(image.samples[$0 + 1]) + 0.0722 * Double(image.samples[$0 + 2])
        }
        let mean = luma.reduce(0, +) / Double(luma.count)
        return (mean, (luma.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(luma.count)).squareRoot())
    }
}
