import Testing
@testable import Renditions

@Suite struct LanczosFilterTests {
    @Test(arguments: [(1800, 128), (1200, 85), (1000, 256), (225, 128), (7, 3), (100, 99), (10, 1), (1, 1), (3, 7), (33, 32)])
    func weightsOfEveryOutputSampleSumToOne(input: Int, output: Int) {
        let filter = LanczosFilter(inputLength: input, outputLength: output)
        #expect(filter.starts.count == output && filter.counts.count == output)
        #expect(filter.weights.count == output * filter.maxTaps)
        for i in 0..<output {
            let count = filter.counts[i], start = filter.starts[i]
            #expect(count >= 1 && count <= filter.maxTaps && count <= filter.widestSpan)
            #expect(start >= 0 && start + count <= input, "output \(i) reads \(start)..<\(start + count) of \(input)")
            let sum = filter.weights[(i * filter.maxTaps)..<(i * filter.maxTaps + count)].reduce(0, +)
            #expect(abs(sum - 1) < 1e-5, "output \(i) of \(input)→\(output): weights sum to \(sum)")
        }
    }

    @Test(arguments: [1, 2, 17, 256])
    func equalSizesAreTheIdentity(length: Int) {
        let filter = LanczosFilter(inputLength: length, outputLength: length)
        #expect(filter.starts == Array(0..<length))
        #expect(filter.counts == Array(repeating: 1, count: length))
        #expect(filter.weights == Array(repeating: 1, count: length))
        #expect(filter.maxTaps == 1 && filter.widestSpan == 1)
    }

    /// Taps copied from the other axis's filter (where both shrink by the same ratio) are the ones
    /// the filter computes alone: at either end, whichever input is the shorter, with another ratio.
    @Test(arguments: [[2000, 1280, 3000, 1920], [3000, 1920, 2000, 1280], [750, 256, 500, 171], [40, 20, 4000, 2000],
                      [64, 64, 32, 32], [3, 7, 6, 14]])
    func sharingTheOtherAxisChangesNoTap(sizes: [Int]) {
        let other = LanczosFilter(inputLength: sizes[2], outputLength: sizes[3])
        let shared = LanczosFilter(inputLength: sizes[0], outputLength: sizes[1], sharing: other)
        let alone = LanczosFilter(inputLength: sizes[0], outputLength: sizes[1])
        #expect(shared.starts == alone.starts && shared.counts == alone.counts && shared.weights == alone.weights)
        #expect(shared.maxTaps == alone.maxTaps && shared.widestSpan == alone.widestSpan)
    }

    @Test func kernelIsLanczos3() {
        #expect(LanczosFilter.lanczos3(0) == 1)
        for x in [1.0, 2.0, -1.0, -2.0, 3.0, -3.0, 3.5] { #expect(abs(LanczosFilter.lanczos3(x)) < 1e-12) }
        #expect(LanczosFilter.lanczos3(0.5) == LanczosFilter.lanczos3(-0.5))
        #expect(LanczosFilter.lanczos3(1.5) < 0) // the negative lobe that sharpens
    }
}
