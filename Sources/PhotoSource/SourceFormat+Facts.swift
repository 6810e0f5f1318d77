/// What the rest of assetfs says of a format, in its registry entry, so the scanner, the
/// renderer's messages, the properties' MIME types, the `original.*` names, `assetfs formats`
/// and the manual's list (docs/manual.md, checked against it by a test) cannot drift apart.
extension SourceFormat {
    public struct Facts: Sendable {
        /// The name people know it by.
        public let name: String
        public let isVideo: Bool
        /// Its MIME type, as freedesktop.org's shared-mime-info names it (`image/x-dcraw` for every camera RAW).
        public let mimeType: String
        /// The extensions its files carry, the usual one first (`original.<usual>` when a source
        /// file has no extension of its own). Only a TIFF-signature file is judged by them: one
        /// with a RAW extension is read as camera RAW. Everything else goes by content.
        public let extensions: [String]

        public init(name: String, isVideo: Bool, mimeType: String, extensions: [String]) {
            (self.name, self.isVideo, self.mimeType, self.extensions) = (name, isVideo, mimeType, extensions)
        }

        public var usualExtension: String { extensions[0] }
    }

    public var mimeType: String { facts.mimeType }
    public var usualExtension: String { facts.usualExtension }

    /// "JPEG, HEIC/HEIF, ..., camera RAW or video": what a file must be to be shown.
    public static var readableSummary: String {
        allCases.filter { !$0.isVideo }.map(\.facts.name).joined(separator: ", ") + " or video"
    }
}
