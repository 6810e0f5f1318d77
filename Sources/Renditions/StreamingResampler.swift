import RenditionsKernels

/// Resamples an image that arrives one row at a time, top to bottom, into `output`:
/// each input row is filtered horizontally as it comes, and only the few filtered rows the
/// vertical filter still needs are kept (a ring of `widestSpan` rows), and each output row goes
/// out as soon as it is made. Memory is that ring and a few rows, whatever the input's size.
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
        vertical = LanczosFilter(inputLength: inputSize.height, outputLength: outputSize.height)
        // What the unchecked kernels rely on, checked once per render rather than once per sample.
        horizontal.validate(inputLength: inputSize.width)
        vertical.validate(inputLength: inputSize.height)
    }

    /// Pulls input rows through `nextRow` (which fills `width * channels` bytes and returns false
    /// when the source has no more) and hands each output row (`outputSize.width * channels` 8-bit
    /// samples, top to bottom) to `emit` as soon as it is made, in a buffer `emit` may change but
    /// not keep: an encoder takes the rows as they come, with no image buffer between.
    /// Stops reading as soon as the last output row is made.
    func run<E: Error>(nextRow: (UnsafeMutablePointer<UInt8>) throws(E) -> Bool,
                       emit: (UnsafeMutablePointer<UInt8>) throws(E) -> Void) throws(E) {
        let c = channels
        let outRowLength = outputSize.width * c
        let ringRows = vertical.widestSpan
        let ring = UnsafeMutablePointer<Float>.allocate(capacity: ringRows * outRowLength)
        defer { ring.deallocate() }
        let input = UnsafeMutablePointer<UInt8>.allocate(capacity: inputSize.width * c)
        defer { input.deallocate() }
        let taps = UnsafeMutablePointer<UnsafePointer<Float>>.allocate(capacity: vertical.maxTaps)
        defer { taps.deallocate() }
        let output = UnsafeMutablePointer<UInt8>.allocate(capacity: outRowLength)
        defer { output.deallocate() }
        // Zeros around the row: the horizontal kernel reads RGB as 4- and 8-lane vectors, from a
        // pixel before the row (AVX2, a pair's first load) to `maxTaps` pixels from each output
        // pixel's first tap (weights past its own taps are 0).
        let before = c, after = horizontal.maxTaps * c + 8
        let samplesBuffer = UnsafeMutablePointer<Float>.allocate(capacity: before + inputSize.width * c + after)
        defer { samplesBuffer.deallocate() }
        let samples = samplesBuffer + before
        samplesBuffer.initialize(repeating: 0, count: before)
        (samples + inputSize.width * c).initialize(repeating: 0, count: after)
        let plan = c == 3 ? horizontal.starts.withUnsafeBufferPointer { starts in
            horizontal.counts.withUnsafeBufferPointer { counts in
                horizontal.weights.withUnsafeBufferPointer { weights in
                    RGBRowPlan(outputWidth: outputSize.width, starts: starts.baseAddress!, counts: counts.baseAddress!,
                               weights: weights.baseAddress!, stride: horizontal.maxTaps)
                }
            }
        } : nil

        var rowsRead = 0
        var lastGood = -1
        for y in 0..<outputSize.height {
            let start = vertical.starts[y], count = vertical.counts[y]
            while rowsRead < start + count {
                let slot = ring + (rowsRead % ringRows) * outRowLength
                if lastGood == rowsRead - 1, try nextRow(input) {
                    // Each input sample becomes a Float once, not once per tap.
                    for i in 0..<inputSize.width * c { samples[i] = Float(input[i]) }
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
