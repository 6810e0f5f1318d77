import Containers
import RenditionsKernels

/// Resamples an image that arrives one row at a time, top to bottom, into `output`:
/// each input row is filtered horizontally as it comes (or two together), and only the few
/// filtered rows the vertical filter still needs are kept (a ring of `widestSpan` rows, one more
/// when rows are filtered in pairs), and each output row goes out as soon as it is made. Memory
/// is that ring and a few rows, whatever the input's size.
///
/// The two passes (horizontal, and vertical with the rounding to bytes) are in
/// `RenditionsKernels`, built -Ounchecked and vectorised; they trust the sizes and filter taps
/// this checked code hands them, which `init` validates.
struct StreamingResampler {
    let inputSize: PixelSize
    let outputSize: PixelSize
    let channels: Int
    private let horizontal: LanczosFilter
    private let vertical: LanczosFilter

    init(from inputSize: PixelSize, to outputSize: PixelSize, channels: Int) {
        self.inputSize = inputSize
        self.outputSize = outputSize
        self.channels = channels
        precondition(channels >= 1 && min(inputSize.width, inputSize.height, outputSize.width, outputSize.height) >= 1,
                     "resampler: cannot resample \(inputSize) to \(outputSize) with \(channels) channels")
        horizontal = LanczosFilter(inputLength: inputSize.width, outputLength: outputSize.width)
        vertical = LanczosFilter(inputLength: inputSize.height, outputLength: outputSize.height, sharing: horizontal)
        // What the unchecked kernels rely on, checked once per render rather than once per sample.
        horizontal.validate(inputLength: inputSize.width)
        vertical.validate(inputLength: inputSize.height)
    }

    /// Pulls input rows through `nextRow` (`width * channels` bytes, read before the next call; nil
    /// when the source has no more) and hands each output row (`outputSize.width * channels` 8-bit
    /// samples, top to bottom) to `emit` as soon as it is made, in a buffer `emit` may change but
    /// not keep: an encoder takes the rows as they come, with no image buffer between.
    /// Stops reading as soon as the last output row is made.
    func run<E: Error>(nextRow: () throws(E) -> UnsafePointer<UInt8>?,
                       emit: (UnsafeMutablePointer<UInt8>) throws(E) -> Void) throws(E) {
        let c = channels
        let outRowLength = outputSize.width * c
        let plan = channels == 3 ? horizontal.starts.withUnsafeBufferPointer { starts in
            horizontal.counts.withUnsafeBufferPointer { counts in
                horizontal.weights.withUnsafeBufferPointer { weights in
                    RGBRowPlan(outputWidth: outputSize.width, starts: starts.baseAddress!, counts: counts.baseAddress!,
                               weights: weights.baseAddress!, stride: horizontal.maxTaps)
                }
            }
        } : nil
        // With a plan, rows go through the horizontal pass two at a time (`resampleRows`), the
        // second maybe one ahead of what the vertical pass needs yet: one more row in the ring.
        let ringRows = vertical.widestSpan + (plan == nil ? 0 : 1)
        let ring = UnsafeMutablePointer<Float>.allocate(capacity: ringRows * outRowLength)
        defer { ring.deallocate() }
        let taps = UnsafeMutablePointer<UnsafePointer<Float>>.allocate(capacity: vertical.maxTaps)
        defer { taps.deallocate() }
        let output = UnsafeMutablePointer<UInt8>.allocate(capacity: outRowLength)
        defer { output.deallocate() }
        // Zeros around the row: the portable horizontal kernel reads RGB as 4-lane vectors, to
        // `maxTaps` pixels from each output pixel's first tap (weights past its own taps are 0);
        // the AVX2 and AVX-512 ones as their plan says.
        let inputLength = inputSize.width * c
        let before = max(0, -(plan?.reads.lowerBound ?? 0))
        let after = max(horizontal.maxTaps * c + 4, (plan?.reads.upperBound ?? 0) - inputLength)
        let paddedLength = before + inputLength + after
        let samplesBuffer = UnsafeMutablePointer<Float>.allocate(capacity: (plan == nil ? 1 : 2) * paddedLength)
        defer { samplesBuffer.deallocate() }
        let samples = samplesBuffer + before, nextSamples = samples + paddedLength  // (the second row's: with a plan only)
        for row in 0..<(plan == nil ? 1 : 2) {
            (samplesBuffer + row * paddedLength).initialize(repeating: 0, count: before)
            (samples + row * paddedLength + inputLength).initialize(repeating: 0, count: after)
        }

        var rowsRead = 0
        var lastGood = -1
        for y in 0..<outputSize.height {
            let start = vertical.starts[y], count = vertical.counts[y]
            while rowsRead < start + count {
                let slot = ring + (rowsRead % ringRows) * outRowLength
                if lastGood == rowsRead - 1, let input = try nextRow() {
                    widen(input, into: samples, count: inputLength)
                    if let plan, rowsRead + 1 < inputSize.height, let next = try nextRow() {
                        widen(next, into: nextSamples, count: inputLength)
                        resampleRows(samples, nextSamples, into: slot, ring + ((rowsRead + 1) % ringRows) * outRowLength, plan: plan)
                        lastGood = rowsRead + 1
                        rowsRead += 2
                        continue
                    }
                    filterRow(samples, into: slot, plan: plan)
                    lastGood = rowsRead
                } else {
                    // A source that ends early repeats its last row rather than leaving garbage.
                    let from = ring + (max(0, lastGood) % ringRows) * outRowLength
                    if lastGood >= 0 { slot.update(from: from, count: outRowLength) } else { slot.update(repeating: 128, count: outRowLength) }
                }
                rowsRead += 1
            }
            for k in 0..<count { taps[k] = UnsafePointer(ring + ((start + k) % ringRows) * outRowLength) }
            vertical.weights.withUnsafeBufferPointer { w in
                resampleColumns(taps, weights: w.baseAddress! + y * vertical.maxTaps, count: count, length: outRowLength,
                                into: output)
            }
            try emit(output)
        }
    }

    @inline(__always)
    private func filterRow(_ input: UnsafeMutablePointer<Float>, into out: UnsafeMutablePointer<Float>, plan: RGBRowPlan?) {
        horizontal.weights.withUnsafeBufferPointer { w in
            horizontal.starts.withUnsafeBufferPointer { starts in
                horizontal.counts.withUnsafeBufferPointer { counts in
                    resampleRow(input, into: out, outputWidth: outputSize.width, channels: channels, starts: starts.baseAddress!,
                                counts: counts.baseAddress!, weights: w.baseAddress!, stride: horizontal.maxTaps, plan: plan)
                }
            }
        }
    }
}
