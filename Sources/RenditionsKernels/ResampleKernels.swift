internal import CResampleKernels

/// The two passes of the Lanczos resampler, which checked arithmetic slows down, and nothing else.
/// This target alone is built `-Ounchecked` in release (Package.swift); bench/unchecked-bench.sh
/// measures what that buys. The functions trust their arguments: they take raw pointers and
/// lengths that the checked code in `Renditions` computed, allocated and validated
/// (`LanczosFilter.validate`), and never see a value read from a file.
///
/// Not `@inlinable`: an @inlinable body is compiled again in its caller, checks and all. (The
/// optimiser may still inline `quantize` across modules, but then as already optimised here.)
/// One call per row costs nothing next to the row's work.
///
/// Both passes sum every output sample's taps in one fixed order, a chain of dependent additions
/// whose latency (not the multiplications) bounds a single sum. So each pass keeps several
/// independent sums in flight (four output pixels, or 32 samples), which the CPU overlaps: the
/// same additions in the same order, the same bits, in about half the time of one sum at a time.
///
/// On CPUs with AVX2, CResampleKernels does the RGB horizontal pass (two output pixels a vector,
/// from one load, or five with AVX-512: `RGBRowPlan`), the bulk of each vertical one (8 samples a
/// vector) and of the widening to floats, again the same operations in the same order; the code
/// here does the rest, and everything elsewhere.

/// Whether this CPU takes CResampleKernels' AVX2 code, asked once.
let avx2 = aresample_avx2_available() != 0

/// The AVX2 (or AVX-512) horizontal pass of RGB rows for one filter (CResampleKernels' plan: the
/// weights laid out for it once). Nil where the CPU lacks AVX2, or memory: the portable code
/// needs no plan.
public final class RGBRowPlan {
    fileprivate let plan: OpaquePointer
    /// The samples a row's pass reads, from the row's first (`lowerBound` at most 0): those outside
    /// the row must be zeros.
    public let reads: Range<Int>

    /// Over `outputWidth` pixels, with the tables `resampleRow` takes (read here, not kept).
    public init?(outputWidth: Int, starts: UnsafePointer<Int>, counts: UnsafePointer<Int>, weights: UnsafePointer<Float>, stride: Int) {
        guard avx2, let plan = aresample_rgb_plan_new(outputWidth, starts, counts, weights, stride) else { return nil }
        self.plan = plan
        var first = 0, end = 0
        aresample_rgb_plan_reads(plan, &first, &end)
        reads = first..<end
    }

    deinit { aresample_rgb_plan_free(plan) }
}

/// The horizontal pass over one row: for every output sample `x` and channel `ch`,
/// `out[x * channels + ch] = Σ weights[x * stride + k] * input[(starts[x] + k) * channels + ch]`
/// for `k in 0..<counts[x]`. Three channels (RGB) go as one 4-lane vector per tap, summed in the
/// same order as one channel at a time, so the results are the same to the bit.
///
/// Requires `starts` and `counts` to hold `outputWidth` entries with `counts[x] <= stride` and
/// `starts[x] + counts[x]` within the input row, `weights` to hold `outputWidth * stride`
/// entries, `out` to have room for `outputWidth * channels` samples, and (three channels) zeros
/// before and after the input row: one pixel before, and up to `(starts[x] + stride) * 3 + 8`
/// for every `x`. A group of output pixels runs to the most taps any of them has, the others
/// adding taps of weight 0 (`weights` past `counts[x]` must be 0), which leave a sum as it was.
/// `plan`, for three channels, made from these tables: the AVX2 or AVX-512 pass.
public func resampleRow(_ input: UnsafePointer<Float>, into out: UnsafeMutablePointer<Float>, outputWidth: Int,
                        channels: Int, starts: UnsafePointer<Int>, counts: UnsafePointer<Int>,
                        weights: UnsafePointer<Float>, stride: Int, plan: RGBRowPlan? = nil) {
    if channels == 3, let plan {
        aresample_row_rgb(plan.plan, input, out)
    } else if channels == 3 {
        @inline(__always) func load(_ p: UnsafePointer<Float>) -> SIMD4<Float> {
            UnsafeRawPointer(p).loadUnaligned(as: SIMD4<Float>.self)
        }
        @inline(__always) func store(_ sum: SIMD4<Float>, _ x: Int) {
            out[x * 3] = sum[0]; out[x * 3 + 1] = sum[1]; out[x * 3 + 2] = sum[2]
        }
        var x = 0
        while x + 4 <= outputWidth {
            let taps = max(max(counts[x], counts[x + 1]), max(counts[x + 2], counts[x + 3]))
            let p0 = input + starts[x] * 3, p1 = input + starts[x + 1] * 3
            let p2 = input + starts[x + 2] * 3, p3 = input + starts[x + 3] * 3
            let w0 = weights + x * stride, w1 = w0 + stride, w2 = w1 + stride, w3 = w2 + stride
            var s0 = SIMD4<Float>(repeating: 0), s1 = s0, s2 = s0, s3 = s0
            for k in 0..<taps {
                s0 += w0[k] * load(p0 + 3 * k)
                s1 += w1[k] * load(p1 + 3 * k)
                s2 += w2[k] * load(p2 + 3 * k)
                s3 += w3[k] * load(p3 + 3 * k)
            }
            store(s0, x); store(s1, x + 1); store(s2, x + 2); store(s3, x + 3)
            x += 4
        }
        while x < outputWidth {
            var sum = SIMD4<Float>(repeating: 0)
            let p = input + starts[x] * 3, w = weights + x * stride
            for k in 0..<counts[x] { sum += w[k] * load(p + 3 * k) }
            store(sum, x)
            x += 1
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

/// `resampleRow` of two rows with the same tables, through `plan` (three channels): the same bits
/// as one row at a time, the AVX-512 pass reading each weight once for both rows.
public func resampleRows(_ first: UnsafePointer<Float>, _ second: UnsafePointer<Float>, into firstOut: UnsafeMutablePointer<Float>,
                         _ secondOut: UnsafeMutablePointer<Float>, plan: RGBRowPlan) {
    aresample_rows_rgb(plan.plan, first, second, firstOut, secondOut)
}

/// `count` bytes as floats: each input sample becomes a Float once, not once per tap.
public func widen(_ bytes: UnsafePointer<UInt8>, into out: UnsafeMutablePointer<Float>, count: Int) {
    var i = avx2 ? aresample_widen_avx2(bytes, out, count) : 0
    while i < count {
        out[i] = Float(bytes[i])
        i += 1
    }
}

/// The vertical pass for one output row, rounded to bytes:
/// `out[i] = quantized(Σ weights[k] * rows[k][i])` for `k in 0..<count`, `i in 0..<length`.
/// 32 samples at a time (then 8, then one) are summed in registers over every tap, in the same
/// order as one at a time, so the results are the same to the bit.
///
/// Requires `rows` and `weights` to hold `count` entries and each row `length` samples.
public func resampleColumns(_ rows: UnsafePointer<UnsafePointer<Float>>, weights: UnsafePointer<Float>, count: Int,
                            length: Int, into out: UnsafeMutablePointer<UInt8>) {
    @inline(__always) func load(_ k: Int, _ i: Int) -> SIMD8<Float> {
        UnsafeRawPointer(rows[k] + i).loadUnaligned(as: SIMD8<Float>.self)
    }
    @inline(__always) func store(_ sum: SIMD8<Float>, _ i: Int) {
        for lane in 0..<8 { out[i + lane] = quantize(sum[lane]) }
    }
    // (A C array of pointers is one of optional pointers to Swift: the same memory.)
    var i = avx2 ? rows.withMemoryRebound(to: UnsafePointer<Float>?.self, capacity: count) {
        aresample_columns_avx2($0, weights, count, length, out)
    } : 0
    while i + 32 <= length {
        var s0 = SIMD8<Float>(repeating: 0), s1 = s0, s2 = s0, s3 = s0
        for k in 0..<count {
            let w = weights[k]
            s0 += w * load(k, i); s1 += w * load(k, i + 8); s2 += w * load(k, i + 16); s3 += w * load(k, i + 24)
        }
        store(s0, i); store(s1, i + 8); store(s2, i + 16); store(s3, i + 24)
        i += 32
    }
    while i + 8 <= length {
        var sum = SIMD8<Float>(repeating: 0)
        for k in 0..<count { sum += weights[k] * load(k, i) }
        store(sum, i)
        i += 8
    }
    while i < length {
        var sum: Float = 0
        for k in 0..<count { sum += weights[k] * rows[k][i] }
        out[i] = quantize(sum)
        i += 1
    }
}

/// A sum rounded half up to a byte, clamped (NaN to 0).
@inline(__always)
func quantize(_ value: Float) -> UInt8 { UInt8(min(255, max(0, value + 0.5))) }
