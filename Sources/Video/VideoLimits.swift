/// Bounds of one video read: a hostile file or a stalled disk must not hold a render thread.
public struct VideoLimits: Sendable {
    /// Bytes read from the file at most (container index, keyframes, a few candidates).
    public var byteBudget: Int
    /// Wall-clock seconds; past them the read stops and the render fails as unreadable (EIO), to be tried again later.
    public var seconds: Double

    public init(byteBudget: Int = 128 << 20, seconds: Double = 20) {
        self.byteBudget = byteBudget
        self.seconds = seconds
    }
}
