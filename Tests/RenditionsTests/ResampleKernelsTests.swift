import Testing
@testable import Renditions
import RenditionsKernels

/// The -Ounchecked, vectorised kernels against plain Swift: the same results to the bit (sums in
/// the same order), and rounding defined for every Float.
@Suite struct ResampleKernelsTests {
    @Test func roundingIsHalfUpAndClampsEverything() {
        let values: [Float] = [-5, -0.5, 0, 0.49, 0.5, 1.5, 127.4999, 254.5, 255, 300, .nan, .infinity, -.infinity, .greatestFiniteMagnitude]
        var out = [UInt8](repeating: 7, count: values.count)
        values.withUnsafeBufferPointer { row in
            let rows = [row.baseAddress!]
            out.withUnsafeMutableBufferPointer { resampleColumns(rows, weights: [1], count: 1, length: values.count, into: $0.baseAddress!) }
        }
        #expect(out == [0, 0, 0, 0, 1, 2, 127, 255, 255, 255, 0, 255, 0, 255])
    }

    @Test(arguments: [1, 3, 4])
    func resampleRowMatchesTheDefinition(channels: Int) {
        let inputWidth = 37, outputWidth = 11
        let filter = LanczosFilter(inputLength: inputWidth, outputLength: outputWidth)
        filter.validate(inputLength: inputWidth)
        // Zeros after the row, as StreamingResampler leaves: RGB is read as 4-lane vectors, four
        // output pixels at a time up to the most taps of the four.
        let input = (0..<(inputWidth * channels)).map { Float(($0 * 53) % 256) } + [Float](repeating: 0, count: filter.maxTaps * channels + 1)
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
                #expect(out[x * channels + ch] == sum, "x \(x) channel \(ch)")
            }
        }
    }

    /// Rows of a length that takes every part: 32-sample blocks, an 8-sample one and single samples.
    @Test func resampleColumnsMatchesTheDefinition() {
        let length = 75, weights: [Float] = [-0.05, 0.3, 0.5, 0.3, -0.05]
        let rows = (0..<weights.count).map { r in (0..<length).map { Float((($0 + 7 * r) * 37) % 256) } }
        var out = [UInt8](repeating: 0, count: length)
        let pointers = rows.map { row in row.withUnsafeBufferPointer { UnsafePointer<Float>($0.baseAddress!) } }
        withExtendedLifetime(rows) {
            out.withUnsafeMutableBufferPointer { resampleColumns(pointers, weights: weights, count: weights.count, length: length, into: $0.baseAddress!) }
        }
        for i in 0..<length {
            var sum: Float = 0
            for k in 0..<weights.count { sum += weights[k] * rows[k][i] }
            #expect(out[i] == UInt8(min(255, max(0, sum + 0.5))), "sample \(i)")
        }
    }
}
