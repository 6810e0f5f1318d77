import Foundation

/// The taps of a separable Lanczos3 resample from `inputLength` to `outputLength` samples,
/// computed once per axis. Taps that would fall outside the image are dropped and the rest
/// renormalised, so edges keep their brightness.
struct LanczosFilter {
    let outputLength: Int
    /// Stride of `weights`.
    let maxTaps: Int
    /// The most taps any output sample really uses: rows a vertical pass must keep.
    let widestSpan: Int
    /// First input index of each output sample.
    let starts: [Int]
    /// Number of taps of each output sample.
    let counts: [Int]
    /// `outputLength * maxTaps` weights, row-major.
    let weights: [Float]

    init(inputLength: Int, outputLength: Int) {
        self.outputLength = outputLength
        if inputLength == outputLength {
            starts = Array(0..<outputLength)
            counts = Array(repeating: 1, count: outputLength)
            weights = Array(repeating: 1, count: outputLength)
            maxTaps = 1
            widestSpan = 1
            return
        }
        let scale = max(1.0, Double(inputLength) / Double(outputLength))
        let ratio = Double(inputLength) / Double(outputLength)
        let support = 3.0 * scale
        let taps = Int(support.rounded(.up)) * 2 + 1
        var starts = [Int](repeating: 0, count: outputLength)
        var counts = [Int](repeating: 0, count: outputLength)
        var weights = [Float](repeating: 0, count: outputLength * taps)
        var used = 1
        for i in 0..<outputLength {
            let center = (Double(i) + 0.5) * ratio
            let first = max(0, Int((center - support).rounded(.down)))
            let last = min(inputLength, Int((center + support).rounded(.up)))
            var row = [Double]()
            row.reserveCapacity(last - first)
            for j in first..<last { row.append(Self.lanczos3((Double(j) + 0.5 - center) / scale)) }
            // Trim zero taps at both ends so the inner loops do no useless work.
            var lo = 0, hi = row.count
            while lo < hi - 1 && row[lo] == 0 { lo += 1 }
            while hi > lo + 1 && row[hi - 1] == 0 { hi -= 1 }
            let total = row[lo..<hi].reduce(0, +)
            starts[i] = first + lo
            counts[i] = hi - lo
            used = max(used, hi - lo)
            for k in lo..<hi { weights[i * taps + (k - lo)] = Float(total != 0 ? row[k] / total : 1) }
        }
        self.starts = starts
        self.counts = counts
        self.maxTaps = taps
        self.weights = weights
        self.widestSpan = used
    }

    /// Traps unless every output sample's taps lie inside `0..<inputLength` and inside its row
    /// of `weights`, the rest of that row 0: the contract of the unchecked `resampleRow`, which
    /// indexes with them unchecked and runs a group of outputs to the most taps of the group.
    func validate(inputLength: Int) {
        precondition(starts.count == outputLength && counts.count == outputLength && weights.count == outputLength * maxTaps
                     && widestSpan <= maxTaps, "Lanczos filter: inconsistent tables")
        for i in 0..<outputLength {
            let start = starts[i], count = counts[i]
            precondition(start >= 0 && count >= 1 && count <= widestSpan && start <= inputLength - count,
                         "Lanczos filter: output \(i) reads \(start)..<\(start &+ count) of \(inputLength)")
            precondition(weights[(i * maxTaps + count)..<((i + 1) * maxTaps)].allSatisfy { $0 == 0 },
                         "Lanczos filter: output \(i) has weights past its \(count) taps")
        }
    }

    static func lanczos3(_ x: Double) -> Double {
        if x == 0 { return 1 }
        if x <= -3 || x >= 3 { return 0 }
        let px = Double.pi * x
        return 3 * sin(px) * sin(px / 3) / (px * px)
    }
}
