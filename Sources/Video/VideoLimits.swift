/// Bounds of one video read: a hostile file or a stalled disk must not hold a render thread.
public struct VideoLimits: Sendable {
    /// Bytes read from the file at most (container index, keyframes, a few candidates).
    public var byteBudget: Int
    /// Wall-clock seconds; past them the read stops and the render fails as unreadable (EIO), to be tried again later.
    public var seconds: Double
    /// Pixels of a frame FFmpeg may decode: 8192 x 8192 by default, above any camera's video (8K
    /// is 35 MP, an 11K 360-degree camera's 56 MP). It binds the stream analysis too, which decodes
    /// a frame of a container whose header gives no size (MPEG-TS, MPEG-PS, some Matroska) before
    /// any memory is reserved for it: a 713-byte Matroska file whose VP8 frame claims 13584 x 13412
    /// had it zero 270 MB.
    public var maxPixels: Int

    public init(byteBudget: Int = 128 << 20, seconds: Double = 20, maxPixels: Int = 8192 * 8192) {
        self.byteBudget = byteBudget
        self.seconds = seconds
        self.maxPixels = maxPixels
    }
}
