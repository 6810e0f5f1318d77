/// The two passes of the Lanczos resampler, which checked arithmetic slows down, and nothing else.
/// This target alone is built `-Ounchecked` in release (Package.swift); bench/unchecked-bench.sh
/// measures what that buys. The functions trust their arguments: they take raw pointers and
/// lengths that the checked code in `Renditions` computed, allocated and validated
/// (`LanczosFilter.validate`), and never see a value read from a file.
///
/// Not `@inlinable`: an @inlinable body is compiled again in its caller, checks and all. (The
/// optimiser may still inline `quantize` across modules, but then as already optimised here.)
/// One call per row costs nothing next to the row's work.

/// The horizontal pass over one row: for every output sample `x` and channel `ch`,
/// `out[x * channels + ch] = Σ weights[x * stride + k] * input[(starts[x] + k) * channels + ch]`
/// for `k in 0..<counts[x]`. Three channels (RGB) go as one 4-lane vector per tap, summed in the
/// same order as one channel at a time, so the results are the same to the bit.
///
/// Requires `starts` and `counts` to hold `outputWidth` entries with `counts[x] <= stride` and
/// `starts[x] + counts[x]` within the input row, `weights` to hold `outputWidth * stride`
/// entries, `out` to have room for `outputWidth * channels` samples, and (three channels) one
/// readable sample after the input row, which the fourth lane reads and drops.
public func resampleRow(_ input: UnsafePointer<Float>, into out: UnsafeMutablePointer<Float>, outputWidth: Int,
                        channels: Int, starts: UnsafePointer<Int>, counts: UnsafePointer<Int>,
                        weights: UnsafePointer<Float>, stride: Int) {
    if channels == 3 {
        for x in 0..<outputWidth {
            var sum = SIMD4<Float>(repeating: 0)
            var p = UnsafeRawPointer(input + starts[x] * 3)
            let w = weights + x * stride
            for k in 0..<counts[x] {
                sum += w[k] * p.loadUnaligned(as: SIMD4<Float>.self)
                p += 3 * MemoryLayout<Float>.stride
            }
            out[x * 3] = sum[0]; out[x * 3 + 1] = sum[1]; out[x * 3 + 2] = sum[2]
        }
    } else {
        for x in 0..<outputWidth {
            let w = weights + x * stride
            for ch in 0..<channels {
                var sum: Float = 0
                var p = input + starts[x] * channels + ch
                for k in 0..<counts[x] { sum += w[k] * p.pointee; p += channels }
                out[x * channels + ch] = sum
            }
        }
    }
}

/// The vertical pass for one output row, rounded to bytes:
/// `out[i] = quantized(Σ weights[k] * rows[k][i])` for `k in 0..<count`, `i in 0..<length`.
/// Eight samples at a time are summed in registers over every tap (in the same order as one
/// at a time, so the results are the same to the bit) instead of in a row-long accumulator.
///
/// Requires `rows` and `weights` to hold `count` entries and each row `length` samples.
public func resampleColumns(_ rows: UnsafePointer<UnsafePointer<Float>>, weights: UnsafePointer<Float>, count: Int,
                            length: Int, into out: UnsafeMutablePointer<UInt8>) {
    var i = 0
    while i + 8 <= length {
        var sum = SIMD8<Float>(repeating: 0)
        for k in 0..<count { sum += weights[k] * UnsafeRawPointer(rows[k] + i).loadUnaligned(as: SIMD8<Float>.self) }
        for lane in 0..<8 { out[i + lane] = UInt8(min(255, max(0, sum[lane] + 0.5))) }
        i += 8
    }
    while i < length {
        var sum: Float = 0
        for k in 0..<count { sum += weights[k] * rows[k][i] }
        out[i] = UInt8(min(255, max(0, sum + 0.5)))
        i += 1
    }
}
