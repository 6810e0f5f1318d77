internal import CHEIF
import Posix

/// What a HEIC's or AVIF's properties need, read by libheif without decoding any image: the size
/// it is shown at (libheif applies irot/imir, so it is already upright) and the primary image's
/// Exif item.
public struct HEIFMetadata {
    public var size: PixelSize
    /// The Exif item as stored: a 4-byte big-endian offset to the TIFF header, then the block.
    public var exifItem: [UInt8]?
    /// Larger Exif items (maker notes and previews) are not read.
    static let maxExifBytes = 4 << 20

    /// Nil when libheif cannot read the container.
    public init?(file: FileDescriptor) {
        guard let decoder = try? HEIFDecoder(file: file, path: "", format: "HEIF") else { return nil }
        size = decoder.size
        exifItem = decoder.exifItem(maxBytes: Self.maxExifBytes)
    }
}

extension HEIFDecoder {
    func exifItem(maxBytes: Int) -> [UInt8]? {
        var data: UnsafePointer<UInt8>?
        var length = 0
        guard aheif_exif(decoder, maxBytes, &data, &length) == 0, let data, length > 0 else { return nil }
        return Array(UnsafeBufferPointer(start: data, count: length))
    }
}
