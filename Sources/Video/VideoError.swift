internal import CBridgeFailure

internal import CVideo

/// Why a video could not be read. The poster maps it to a rendition error, the properties to
/// "no properties"; the kinds are the ones those need to tell apart.
public struct VideoError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable {
        /// The file could not be read (an I/O error, or the deadline passed): may work next time.
        case unreadable
        /// FFmpeg reads the container but not what it holds (a codec, a pixel format).
        case unsupported
        /// The content is broken.
        case corrupt
        /// Sound (or data) but no video stream: a voice memo, an audiobook.
        case noPictures
    }

    public var kind: Kind
    public var path: String
    public var reason: String

    public init(_ kind: Kind, path: String, reason: String) {
        (self.kind, self.path, self.reason) = (kind, path, reason)
    }

    public var description: String { "\(path): video: \(reason)" }

    /// A file with sound but no pictures, which is not shown.
    public static func noPictures(path: String) -> VideoError { VideoError(.noPictures, path: path, reason: "audio only") }

    /// A failure of FFmpeg's bridge by its kind (`BRIDGE_FAILURE_*`): a read error, no memory or
    /// a timeout is `.unreadable`; an incomplete file, like any other the bridge cannot read, the content's.
    static func bridge(_ failure: Int32, _ message: String, path: String) -> VideoError {
        switch Int(failure) {
        case BRIDGE_FAILURE_READ, BRIDGE_FAILURE_CANCELLED, BRIDGE_FAILURE_OUT_OF_MEMORY: VideoError(.unreadable, path: path, reason: message)
        case BRIDGE_FAILURE_UNSUPPORTED: VideoError(.unsupported, path: path, reason: message)
        default: VideoError(.corrupt, path: path, reason: message)
        }
    }
}
