import Foundation
import Testing
@testable import Renditions
import RenditionsKernels

/// The -Ounchecked, vectorised kernels against plain Swift: the same results to the bit (sums in
/// the same order), and rounding defined for every Float.
@Suite struct ResampleKernelsTests {
    /// Three times over: 42 samples, so that a 32-sample block (AVX2 where the CPU has it) rounds them too.
    @Test func roundingIsHalfUpAndClampsEverything() {
        let values: [Float] = [-5, -0.5, 0, 0.49, 0.5, 1.5, 127.4999, 254.5, 255, 300, .nan, .infinity, -.infinity, .greatestFiniteMagnitude]
        let row = values + values + values
        var out = [UInt8](repeating: 7, count: row.count)
        row.withUnsafeBufferPointer { row in
            let rows = [row.baseAddress!]
            out.withUnsafeMutableBufferPointer { resampleColumns(rows, weights: [1], count: 1, length: row.count, into: $0.baseAddress!) }
        }
        let expected: [UInt8] = [0, 0, 0, 0, 1, 2, 127, 255, 255, 255, 0, 255, 0, 255]
        #expect(out == expected + expected + expected)
    }

    /// Every path: one and four channels, three with and without the AVX2 or AVX-512 plan (where the
    /// CPU has AVX2), over an output width that leaves the last group short (a pair of its second
    /// pixel, a group of five of two).
    @Test(arguments: [(1, false), (3, false), (3, true), (4, false)])
    func resampleRowMatchesTheDefinition(channels: Int, planned: Bool) throws {
        let inputWidth = 37, outputWidth = 13
        let filter = LanczosFilter(inputLength: inputWidth, outputLength: outputWidth)
        filter.validate(inputLength: inputWidth)
        let plan = planned ? RGBRowPlan(outputWidth: outputWidth, starts: filter.starts, counts: filter.counts,
                                        weights: filter.weights, stride: filter.maxTaps) : nil
        try #require(!planned || plan != nil || !avx2Available, "no plan on a CPU with AVX2")
        // Zeros around the row, as StreamingResampler leaves: after it enough for 4-lane loads to
        // the most taps of a pixel, and what the plan reads.
        let input = (0..<(inputWidth * channels)).map { Float(($0 * 53) % 256) }
        let before = -(plan?.reads.lowerBound ?? 0)
        let after = max(filter.maxTaps * channels + 4, (plan?.reads.upperBound ?? 0) - input.count)
        let padded = [Float](repeating: 0, count: before) + input + [Float](repeating: 0, count: after)
        var out = [Float](repeating: .nan, count: outputWidth * channels)
        padded.withUnsafeBufferPointer { p in
            out.withUnsafeMutableBufferPointer { o in
                resampleRow(p.baseAddress! + before, into: o.baseAddress!, outputWidth: outputWidth, channels: channels, starts: filter.starts,
                            counts: filter.counts, weights: filter.weights, stride: filter.maxTaps, plan: plan)
            }
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

    /// Whether this CPU has AVX2, asked of the kernel (/proc/cpuinfo's flags).
    var avx2Available: Bool {
        ((try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? "").split(separator: "\n")
            .contains { $0.hasPrefix("flags") && $0.split(separator: " ").contains("avx2") }
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

    /// Every byte value, over a length that takes 32-sample blocks (AVX2) and single samples.
    @Test func widenMakesEveryByteItsFloat() {
        let bytes = (0..<300).map { UInt8(($0 * 7) % 256) }
        var out = [Float](repeating: .nan, count: bytes.count)
        out.withUnsafeMutableBufferPointer { widen(bytes, into: $0.baseAddress!, count: bytes.count) }
        #expect(out == bytes.map { Float($0) })
    }
}
