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
