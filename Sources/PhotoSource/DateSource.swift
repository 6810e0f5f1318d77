/// Where a photo's date taken came from. The properties reader decides it, the catalog stores
/// its raw value (so the numbers are the catalog's format: never renumber a case), and
/// `user.assetfs.date_source` and `assetfs stats` name it.
public enum DateSource: Int, Sendable, CaseIterable {
    case exifOriginal = 1, exifDigitized = 2, modificationTime = 3, xmp = 4, sidecar = 5
    /// A video's: QuickTime's `com.apple.quicktime.creationdate` (local, with its zone), or
    /// the movie header's creation time (UTC).
    case quickTime = 6, movieHeader = 7
    /// A date in the file's name (`IMG-20240305-WA0002.jpg`), for a file with none inside it.
    case fileName = 8

    /// What `user.assetfs.date_source` says.
    public var name: String {
        switch self {
        case .exifOriginal: "exif-original"
        case .exifDigitized: "exif-digitized"
        case .modificationTime: "mtime"
        case .xmp: "xmp"
        case .sidecar: "sidecar"
        case .quickTime: "quicktime"
        case .movieHeader: "movie-header"
        case .fileName: "filename"
        }
    }
}
