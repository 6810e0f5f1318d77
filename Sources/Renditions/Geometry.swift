/// Pixel sizes and the arithmetic of fitting one into a box.
public struct PixelSize: Hashable, Sendable, CustomStringConvertible {
    public var width: Int
    public var height: Int
    public init(width: Int, height: Int) { self.width = width; self.height = height }

    public var transposed: PixelSize { PixelSize(width: height, height: width) }
    public var description: String { "\(width)x\(height)" }

    /// The largest size with this aspect ratio whose longest side is at most `longestSide`;
    /// never larger than `self` (no upscaling), never 0. The short side is rounded half up,
    /// so the same input always gives the same size.
    public func fitted(longestSide: Int) -> PixelSize {
        let long = max(width, height)
        guard long > longestSide else { return self }
        func scale(_ side: Int) -> Int { max(1, (side * longestSide * 2 + long) / (2 * long)) }
        return width >= height
            ? PixelSize(width: longestSide, height: scale(height))
            : PixelSize(width: scale(width), height: longestSide)
    }
}

extension PixelSize {
    /// The largest libjpeg DCT shrink (1/8, 1/4, 1/2 or 1) that still decodes at least `target`
    /// in both directions. The DCT shrink drops high frequencies, which makes it a band-limited
    /// downscale of its own, so the final Lanczos filter needs no further headroom (measured in bench/).
    func shrinkOnLoadDenominator(toReach target: PixelSize) -> Int {
        for denominator in [8, 4, 2] {
            let w = (width + denominator - 1) / denominator
            let h = (height + denominator - 1) / denominator
            if w >= target.width && h >= target.height { return denominator }
        }
        return 1
    }
}
