import Containers
import Posix

/// What a video's container says about it, read without decoding a frame: what properties are
/// made from, and how a scanner tells a video from an audio-only file.
public struct VideoSummary: Sendable {
    /// False for a file with sound (or data) but no pictures: not shown (`VideoError.noPictures`).
    public var hasVideo: Bool
    /// FFmpeg's short name of the video codec (`h264`, `hevc`, `av1`, ...), nil without video.
    public var codec: String?
    public var audioCodec: String?
    /// The container's duration in seconds (as ffprobe and exiftool's QuickTime:Duration give it).
    public var duration: Double?
    /// The size a poster has at full size: the display size (sample aspect ratio applied), turned by
    /// the display matrix. Nil without video.
    public var uprightSize: PixelSize?
    /// Clockwise degrees the display matrix turns the picture, as exiftool's Composite:Rotation
    /// reads it (0, 90, 180, 270); `mirrored` when it also flips it (a negative determinant).
    public var rotation: Int
    public var mirrored: Bool
    /// `hlg` or `pq` when the stream's header names an HDR transfer, else nil.
    public var hdr: String?
    /// The container's metadata tags in FFmpeg's names (see `VideoDecoder.tags`).
    public var tags: [String: String]

    /// Reads the container open at `file` (pread only). Fails as a poster would: unreadable, or the
    /// content's fault (a file that looks like a video but cannot be opened is a broken asset).
    public static func read(_ file: FileDescriptor, name: String, limits: VideoLimits = VideoLimits()) throws(VideoError) -> VideoSummary {
        let video = try VideoDecoder(file: file, path: name, limits: limits)
        var summary = VideoSummary(hasVideo: video.stream != nil, codec: nil, audioCodec: video.audioCodec, duration: video.duration,
                                   uprightSize: nil, rotation: 0, mirrored: false, hdr: nil, tags: video.tags)
        guard let stream = video.stream else { return summary }
        summary.codec = video.codec
        let display = stream.displaySize(of: stream.size)
        summary.uprightSize = display
        if let m = stream.displayMatrix, m.count >= 5 {
            // exiftool's atan2(b, a), to the nearest quarter turn.
            let straight = abs(Int64(m[0])) >= abs(Int64(m[1]))
            summary.rotation = straight ? (m[0] >= 0 ? 0 : 180) : (m[1] > 0 ? 90 : 270)
            summary.mirrored = Int64(m[0]) * Int64(m[4]) - Int64(m[1]) * Int64(m[3]) < 0
            // A quarter turn (either way, mirrored or not) stands the poster on its side, as the
            // poster's orientation (Renditions' `Orientation(displayMatrix:)`) reads the same matrix.
            if !straight && m[3] != 0 { summary.uprightSize = display.transposed }
        }
        summary.hdr = HDRTransfer(rawValue: stream.transfer).map { $0 == .pq ? "pq" : "hlg" }
        return summary
    }
}
