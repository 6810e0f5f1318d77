import Testing
@testable import Renditions
import RenditionsKernels

/// The -Ounchecked kernels against plain Swift: same results, and defined for every Float.
@Suite struct ResampleKernelsTests {
    @Test func quantizeRoundsHalfUpAndClampsEverything() {
        let values: [Float] = [-5, -0.5, 0, 0.49, 0.5, 1.5, 127.4999, 254.5, 255, 300, .nan, .infinity, -.infinity, .greatestFiniteMagnitude]
        var out = [UInt8](repeating: 7, count: values.count)
        out.withUnsafeMutableBufferPointer { quantize(values, into: $0.baseAddress!, count: values.count) }
        #expect(out == [0, 0, 0, 0, 1, 2, 127, 255, 255, 255, 0, 255, 0, 255])
    }

    @Test(arguments: [1, 3, 4])
    func resampleRowMatchesTheDefinition(channels: Int) {
        let inputWidth = 37, outputWidth = 11
        let filter = LanczosFilter(inputLength: inputWidth, outputLength: outputWidth)
        filter.validate(inputLength: inputWidth)
        let input = (0..<(inputWidth * channels)).map { Float(($0 * 53) % 256) }
        var out = [Float](repeating: .nan, count: outputWidth * channels)
        out.withUnsafeMutableBufferPointer { o in
            resampleRow(input, into: o.baseAddress!, outputWidth: outputWidth, channels: channels, starts: filter.starts,
                        counts: filter.counts, weights: filter.weights, stride: filter.maxTaps)
        }
        for x in 0..<outputWidth {
            for ch in 0..<channels {
                var sum: Float = 0
                for k in 0..<filter.counts[x] {
                    sum += filter.weights[x * filter.maxTaps + k] * input[(filter.starts[x] + k) * channels + ch]
                }
                #expect(abs(out[x * channels + ch] - sum) <= 1e-3, "x \(x) channel \(ch)")
            }
        }
    }
}
