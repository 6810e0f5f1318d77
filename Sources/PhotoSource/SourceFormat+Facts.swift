/// The format table: one row per format with everything the rest of assetfs says of it, so the
/// scanner, the renderer's messages, the properties' MIME types, the `original.*` names,
/// `assetfs formats` and the manual's list (docs/manual.md, checked against it by a test) cannot
/// drift apart.
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

        public var usualExtension: String { extensions[0] }
    }

    public var facts: Facts {
        switch self {
        case .jpeg: Facts(name: "JPEG", isVideo: false, mimeType: "image/jpeg", extensions: ["jpg", "jpeg", "jpe"])
        case .heif: Facts(name: "HEIC/HEIF", isVideo: false, mimeType: "image/heic", extensions: ["heic", "heif", "hif"])
        case .avif: Facts(name: "AVIF", isVideo: false, mimeType: "image/avif", extensions: ["avif"])
        case .png: Facts(name: "PNG", isVideo: false, mimeType: "image/png", extensions: ["png"])
        case .webp: Facts(name: "WebP", isVideo: false, mimeType: "image/webp", extensions: ["webp"])
        case .gif: Facts(name: "GIF", isVideo: false, mimeType: "image/gif", extensions: ["gif"])
        case .tiff: Facts(name: "TIFF", isVideo: false, mimeType: "image/tiff", extensions: ["tiff", "tif"])
        case .raw: Facts(name: "camera RAW", isVideo: false, mimeType: "image/x-dcraw", extensions: Self.rawExtensions)
        case .quickTime: Facts(name: "QuickTime", isVideo: true, mimeType: "video/quicktime", extensions: ["mov", "qt"])
        case .mp4: Facts(name: "MP4", isVideo: true, mimeType: "video/mp4", extensions: ["mp4"])
        case .m4v: Facts(name: "M4V", isVideo: true, mimeType: "video/x-m4v", extensions: ["m4v"])
        case .threeGPP: Facts(name: "3GP", isVideo: true, mimeType: "video/3gpp", extensions: ["3gp", "3g2"])
        case .matroska: Facts(name: "Matroska", isVideo: true, mimeType: "video/x-matroska", extensions: ["mkv"])
        case .webM: Facts(name: "WebM", isVideo: true, mimeType: "video/webm", extensions: ["webm"])
        case .avi: Facts(name: "AVI", isVideo: true, mimeType: "video/x-msvideo", extensions: ["avi"])
        case .mpegTransportStream: Facts(name: "MPEG transport stream", isVideo: true, mimeType: "video/mp2t", extensions: ["m2ts", "mts", "ts"])
        case .mpegProgramStream: Facts(name: "MPEG program stream", isVideo: true, mimeType: "video/mpeg", extensions: ["mpg", "mpeg", "vob"])
        }
    }

    public var mimeType: String { facts.mimeType }
    public var usualExtension: String { facts.usualExtension }

    /// Every camera RAW extension of the containers LibRaw reads (docs/manual.md names their cameras);
    /// `raw` (Panasonic's and Leica's before RW2) first, the neutral name of one without any.
    private static let rawExtensions = ["raw", "cr2", "cr3", "crw", "nef", "nrw", "arw", "srf", "sr2", "dng", "orf", "rw2", "rwl",
                                        "raf", "pef", "srw", "mrw", "iiq", "3fr", "fff", "mef", "mos", "erf", "dcr", "kdc", "x3f"]

    /// "JPEG, HEIC/HEIF, ..., camera RAW or video": what a file must be to be shown.
    public static var readableSummary: String {
        allCases.filter { !$0.isVideo }.map(\.facts.name).joined(separator: ", ") + " or video"
    }
}
