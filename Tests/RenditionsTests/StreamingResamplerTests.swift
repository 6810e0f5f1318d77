import Testing
@testable import Renditions

@Suite struct StreamingResamplerTests {
    @Test func keepsAnImageOfTheSameSizeAndAFlatColour() {
        // Same size: the identity. Downscaled: a flat colour stays exactly that colour.
        let size = PixelSize(width: 5, height: 4)
        let source: [UInt8] = (0..<(5 * 4 * 3)).map { UInt8(($0 * 37) % 256) }
        #expect(resample(source, from: size, to: size, channels: 3) == source)
        let flat = [UInt8](repeating: 200, count: 40 * 30)
        #expect(resample(flat, from: PixelSize(width: 40, height: 30), to: PixelSize(width: 7, height: 5), channels: 1)
                == [UInt8](repeating: 200, count: 35))
    }

    private func resample(_ source: [UInt8], from: PixelSize, to: PixelSize, channels: Int) -> [UInt8] {
        let resampler = StreamingResampler(from: from, to: to, channels: channels)
        var output = [UInt8](repeating: 0, count: to.width * to.height * channels)
        var row = 0
        let rowLength = from.width * channels
        output.withUnsafeMutableBufferPointer { out in
            resampler.run(into: out.baseAddress!) { destination in
                guard row < from.height else { return false }
                for i in 0..<rowLength { destination[i] = source[row * rowLength + i] }
                row += 1
                return true
            }
        }
        return output
    }
}
