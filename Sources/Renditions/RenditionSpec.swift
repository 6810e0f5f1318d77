/// What to make of a photo: the longest side of the box it must fit, and the JPEG quality.
public struct RenditionSpec: Hashable, Sendable, CustomStringConvertible {
    public var longestSide: Int
    public var quality: Int

    /// The JPEG quality of renditions unless `-o quality=` says otherwise.
    public static let defaultQuality = 85

    public init(longestSide: Int, quality: Int = defaultQuality) {
        self.longestSide = max(1, longestSide)
        self.quality = min(100, max(1, quality))
    }

    public var description: String { "\(longestSide)px q\(quality)" }
}
