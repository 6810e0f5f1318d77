/// The two loops of the Lanczos resampler that checked arithmetic slows down, and nothing else.
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
/// for `k in 0..<counts[x]`.
///
/// Requires `starts` and `counts` to hold `outputWidth` entries with `counts[x] <= stride` and
/// `starts[x] + counts[x]` within the input row, `weights` to hold `outputWidth * stride`
/// entries, and `out` to have room for `outputWidth * channels` samples.
public func resampleRow(_ input: UnsafePointer<Float>, into out: UnsafeMutablePointer<Float>, outputWidth: Int,
                        channels: Int, starts: UnsafePointer<Int>, counts: UnsafePointer<Int>,
                        weights: UnsafePointer<Float>, stride: Int) {
    if channels == 3 {
        for x in 0..<outputWidth {
            var r: Float = 0, g: Float = 0, b: Float = 0
            var p = input + starts[x] * 3
            let w = weights + x * stride
            for k in 0..<counts[x] {
                let weight = w[k]
                r += weight * p[0]; g += weight * p[1]; b += weight * p[2]
                p += 3
            }
            out[x * 3] = r; out[x * 3 + 1] = g; out[x * 3 + 2] = b
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

/// `out[i]` = `values[i]` rounded half up into 0...255, for `i in 0..<count`. Defined for every
/// input: clamping comes first (a NaN becomes 0), so the conversion is always in range, which is
/// what lets it vectorise once its range check is gone.
public func quantize(_ values: UnsafePointer<Float>, into out: UnsafeMutablePointer<UInt8>, count: Int) {
    for i in 0..<count { out[i] = UInt8(min(255, max(0, values[i] + 0.5))) }
}
