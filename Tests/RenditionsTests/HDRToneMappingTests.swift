import Video
import Foundation
import Posix
import Testing
@testable import Renditions

/// PQ and HLG sources are tone-mapped to SDR: the transfer functions against the published values
/// of their standards, the curve's shape, and a real HDR AVIF against its own plain reading.
@Suite struct HDRToneMappingTests {
    /// ITU-R BT.2408 (table 1) and SMPTE ST 2084: the PQ signal of 100, 203 and 1000 cd/m².
    @Test func pqSignalsGiveTheLightTheStandardsGive() {
        let known: [(signal: Double, nits: Double)] = [(0, 0), (0.5081, 100), (0.5806, 203), (0.7518, 1000), (1, 10000)]
        for (signal, nits) in known {
            let light = HDRTransfer.pq.displayLight(signal)
            #expect(abs(light - nits) <= max(0.01, nits * 0.005), "PQ \(signal): \(light) cd/m², expected \(nits)")
        }
    }

    /// BT.2408: HLG reference white is a 75 % signal, 203 cd/m² on a 1000 cd/m² display; 100 % is the peak.
    @Test func hlgReferenceWhiteAndPeak() {
        #expect(abs(HDRTransfer.hlg.displayLight(0.75) - 203) < 203 * 0.02, "\(HDRTransfer.hlg.displayLight(0.75))")
        #expect(abs(HDRTransfer.hlg.displayLight(1) - 1000) < 1)
        #expect(HDRTransfer.hlg.displayLight(0) == 0)
    }

    /// Mid-tones keep their SDR level, BT.2408's reference white (203 cd/m²) comes out at about
    /// 0.82 of SDR white (the roll-off starts at 80 cd/m²), the peak reaches SDR white, and the
    /// curve never falls (no band of the picture is inverted).
    @Test func theCurveKeepsMidTonesAndRollsOffHighlights() {
        for transfer in [HDRTransfer.pq, .hlg] {
            let grey = transfer == .pq ? 0.4236 : 0.38  // about 18 % of reference white
            let greyLight = transfer.displayLight(grey) / HDRTransfer.sdrWhiteLight
            #expect(abs(transfer.sdrLight(grey) - greyLight) < 1e-9, "\(transfer): mid-grey unchanged")
            let white = transfer == .pq ? 0.5806 : 0.75
            #expect((0.8..<0.85).contains(transfer.sdrLight(white)), "\(transfer): reference white \(transfer.sdrLight(white))")
            let curve = (0...4095).map { transfer.sdrLight(Double($0) / 4095) }
            #expect(zip(curve, curve.dropFirst()).allSatisfy { $0 <= $1 }, "\(transfer): monotonic")
            #expect(curve.first == 0)
            #expect(curve.last.map { abs($0 - 1) < 1e-6 } == true, "\(transfer): the peak is SDR white")
        }
        // Light above the assumed peak (PQ goes to 10,000 cd/m²) stays white, never above.
        #expect(HDRTransfer.pq.sdrLight(0.9) == 1)
    }

    /// An HDR AVIF (Display P3, PQ) tone-mapped against the same file read as if its transfer were
    /// sRGB's (its colr box changed, nothing else): what a plain 10-to-8-bit cut shows, "dull and
    /// dark" (testdata README). Measured at 256 px: mean luma 133 against 104, standard deviation
    /// 70 against 38, brightest 255 against 179.
    @Test func anHDRPhotoIsNoLongerDullAndDark() throws {
        let row = try #require(TestData.expectation("formats/hdr_pq_10bit_p3.avif"))
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: row.path)))
        let at = try #require(FingerprintSamples.nclxCodePoints(in: bytes))
        #expect(Array(bytes[(at + 2)..<(at + 4)]) == [0x00, 0x10], "the file says PQ")
        let mapped = try luma(of: bytes)
        bytes.replaceSubrange((at + 2)..<(at + 4), with: [0x00, 0x0D])  // sRGB transfer
        let plain = try luma(of: bytes)
        #expect(mapped.mean > plain.mean + 15, "mean luma \(mapped.mean) against \(plain.mean)")
        #expect(mapped.deviation > plain.deviation * 1.5, "contrast \(mapped.deviation) against \(plain.deviation)")
        #expect(mapped.brightest >= 250, "highlights reach white: \(mapped.brightest)")
        #expect(mapped.clipped <= 0.01, "pixels with a clipped channel: \(mapped.clipped)")
    }

    private func luma(of file: [UInt8]) throws -> (mean: Double, deviation: Double, brightest: UInt8, clipped: Double) {
        let memory = try OwnedFileDescriptor.memoryFile(holding: file)
        let rendition = try Renderer().render(memory.descriptor, spec: RenditionSpec(longestSide: 256), name: "hdr")
        let pixels = try Tools.djpeg(rendition.jpeg)
        let luma = stride(from: 0, to: pixels.samples.count, by: 3).map {
            0.2126 * Double(pixels.samples[$0]) + 0.7152 * Double(pixels.samples[$0 + 1]) + 0.0722 * Double(pixels.samples[$0 + 2])
        }
        let mean = luma.reduce(0, +) / Double(luma.count)
        let deviation = (luma.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(luma.count)).squareRoot()
        let clipped = stride(from: 0, to: pixels.samples.count, by: 3).filter { pixels.samples[$0..<$0 + 3].contains(255) }.count
        return (mean, deviation, pixels.samples.max() ?? 0, Double(clipped) / Double(luma.count))
    }
}
