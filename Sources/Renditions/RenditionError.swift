/// Why a photo could not be rendered. The message names the file and the reason, on one line.
public struct RenditionError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        case notJPEG = "not a JPEG file"
        case unreadable = "cannot read file"
        case tooManyPixels = "image too large"
        case overMemoryBudget = "over the decode memory budget"
        case unsupported = "unsupported JPEG"
        case corrupt = "corrupt JPEG"
        case encodeFailed = "cannot encode rendition"
    }

    public var kind: Kind
    public var path: String
    public var reason: String

    public init(_ kind: Kind, path: String, reason: String) {
        self.kind = kind
        self.path = path
        self.reason = reason
    }

    public var description: String { "\(path): \(kind.rawValue): \(reason)" }

    /// Whether the photo itself is at fault, so trying again cannot help until it changes. A file
    /// that could not be read (gone, no permission, I/O error) may read fine next time.
    public var isContentFailure: Bool { kind != .unreadable }
}
