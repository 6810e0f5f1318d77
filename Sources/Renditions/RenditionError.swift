internal import CBridgeFailure

/// Why a photo or a video's poster could not be rendered. The message names the file, what it was
/// read as and the reason, on one line.
public struct RenditionError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable {
        case unrecognised, unreadable, tooManyPixels, overMemoryBudget, unsupported, corrupt, encodeFailed

        /// The kind in words, for a file read as `medium`.
        public func phrase(_ medium: Medium) -> String {
            switch self {
            case .unrecognised: "not a supported \(medium) file"
            case .unreadable: "cannot read file"
            case .tooManyPixels: "\(medium) too large"
            case .overMemoryBudget: "needs more memory than one render may hold"
            case .unsupported: "unsupported \(medium)"
            case .corrupt: "corrupt \(medium)"
            case .encodeFailed: "cannot encode rendition"
            }
        }
    }

    /// What the file was read as.
    public enum Medium: String, Sendable, CustomStringConvertible {
        case image, video
        public var description: String { rawValue }
    }

    public var kind: Kind
    public var path: String
    public var reason: String
    public var medium: Medium

    public init(_ kind: Kind, path: String, reason: String, medium: Medium = .image) {
        self.kind = kind
        self.path = path
        self.reason = reason
        self.medium = medium
    }

    public var description: String { "\(path): \(cause)" }

    /// What went wrong without the file's name: what copies sharing one rendition keep, each
    /// named as itself when told (`RenditionRequest.told`).
    public var cause: String { "\(kind.phrase(medium)): \(reason)" }

    /// Whether the photo itself is at fault, so trying again cannot help until it changes. A file
    /// that could not be read (gone, no permission, I/O error) may read fine next time.
    public var isContentFailure: Bool { kind != .unreadable }

    /// Whether it fails under any settings: a photo over what one render may hold on this machine
    /// (half its memory) renders on a bigger one, so that failure is not stored for later mounts.
    public var failsUnderAnySettings: Bool { kind != .overMemoryBudget }

    /// A bridge's failure, by the kind it reports (`BRIDGE_FAILURE_*`), never by its message: a
    /// read error, no memory or a cancel may pass (`.unreadable`, tried again next time); anything
    /// else is the content's fault, told with the format's name (`format` nil: the message says).
    static func bridge(_ format: String?, failure kind: Int32, _ message: String, path: String) -> RenditionError {
        let told = format.map { "\($0): \(message)" } ?? message
        switch Int(kind) {
        case BRIDGE_FAILURE_READ, BRIDGE_FAILURE_OUT_OF_MEMORY, BRIDGE_FAILURE_CANCELLED:
            return RenditionError(.unreadable, path: path, reason: message)
        case BRIDGE_FAILURE_UNSUPPORTED: return RenditionError(.unsupported, path: path, reason: told)
        case BRIDGE_FAILURE_UNRECOGNISED: return RenditionError(.unrecognised, path: path, reason: told)
        default: return RenditionError(.corrupt, path: path, reason: told)
        }
    }
}
