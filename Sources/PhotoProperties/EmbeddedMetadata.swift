import Containers
import PhotoSource
import Posix

/// What a photo's own format says of it, before it is made properties: its EXIF block, its XMP
/// packet, its IPTC keywords and its stored pixel size. Each format's reader reads only the few
/// places these are kept.
struct EmbeddedMetadata {
    /// An EXIF block from "Exif\0\0" on, as libexif reads it.
    var exif: [UInt8]?
    /// The XMP packet (a JPEG's extended XMP after its main packet).
    var xmp: [UInt8]?
    var iptcKeywords: [[UInt8]] = []
    var size: PixelSize?
    /// Whether `size` is already upright: a HEIF's shown size has its irot applied (as libheif
    /// applies irot and imir to its pixels), and its EXIF Orientation (written to match, or
    /// stale) must not be applied again.
    var isUpright = false

    init(exif: [UInt8]? = nil, xmp: [UInt8]? = nil, size: PixelSize? = nil, isUpright: Bool = false) {
        (self.exif, self.xmp, self.size, self.isUpright) = (exif, xmp, size, isUpright)
    }

    init(_ entries: CompactEXIF, xmp: [UInt8]? = nil, size: PixelSize?, isUpright: Bool = false) {
        self.init(exif: entries.isEmpty ? nil : entries.block, xmp: xmp, size: size, isUpright: isUpright)
    }

    /// JPEG: the APP1 "Exif" and XMP segments (extended XMP joined to its main packet), APP13's
    /// IPTC keywords and the frame header.
    static func jpeg(_ file: FileDescriptor) -> EmbeddedMetadata {
        guard let segments = JPEGSegments.read(file) else { return EmbeddedMetadata() }
        var xmp = segments.xmp
        if let main = xmp.flatMap(XMPPacket.init), let rest = segments.extendedXMP.packet(continuing: main) { xmp? += [0x0A] + rest }
        var result = EmbeddedMetadata(exif: segments.exif, xmp: xmp, size: segments.frameSize.map { PixelSize(width: $0.width, height: $0.height) })
        result.iptcKeywords = segments.photoshop.map(IPTCKeywords.keywords(inResources:)) ?? []
        return result
    }

    /// HEIC and AVIF: the primary item's size as shown (its irot applied) and its Exif item, which begins with the 4-byte big-endian offset of
    /// its TIFF header from the end of those 4 bytes.
    static func heif(_ file: FileDescriptor) -> EmbeddedMetadata {
        let heif = HEIFItems(file: file)
        var entries = CompactEXIF()
        if let item = heif.exifItem, item.count > 4 {
            let offset = ByteOrder.bigEndian.integer(item[0..<4])
            if let tiff = TIFFStructure(exif: item, skipping: 4 + offset) ?? TIFFStructure(exif: item, skipping: 4) {
                entries.addIFD0(of: tiff)
            }
        }
        return EmbeddedMetadata(entries, xmp: heif.xmpItem, size: heif.shownSize, isUpright: true)
    }

    /// PNG: IHDR's size and the eXIf and XMP chunks (before or after the image data).
    static func png(_ file: FileDescriptor) -> EmbeddedMetadata {
        guard let head = try? file.read(upTo: 24, at: 0), head.count == 24, Array(head[12..<16]) == Array("IHDR".utf8) else { return EmbeddedMetadata() }
        var entries = CompactEXIF()
        let chunks = PNGChunks.metadata(of: file)
        if let block = chunks.exif, let tiff = TIFFStructure(exif: block) { entries.addIFD0(of: tiff) }
        return EmbeddedMetadata(entries, xmp: chunks.xmp, size: PixelSize(width: ByteOrder.bigEndian.integer(head, at: 16, count: 4), height: ByteOrder.bigEndian.integer(head, at: 20, count: 4)))
    }

    /// GIF: the logical screen's size (GIF has no EXIF).
    static func gif(_ file: FileDescriptor) -> EmbeddedMetadata {
        guard let head = try? file.read(upTo: 10, at: 0), head.count == 10 else { return EmbeddedMetadata() }
        return EmbeddedMetadata(size: PixelSize(width: ByteOrder.littleEndian.integer(head, at: 6, count: 2), height: ByteOrder.littleEndian.integer(head, at: 8, count: 2)))
    }
}

extension EmbeddedMetadata {
    /// The metadata reader of each photo format, registered under it here, where the readers are;
    /// a video's metadata is its container's, FFmpeg's to read (`VideoProperties`).
    static let readers: [SourceFormat: @Sendable (FileDescriptor) -> EmbeddedMetadata] = [
        .jpeg: { jpeg($0) }, .heif: { heif($0) }, .avif: { heif($0) }, .png: { png($0) }, .webp: { webp($0) },
        .gif: { gif($0) }, .tiff: { tiff($0) }, .raw: { raw($0) },
    ]

    /// What the reader of `format` finds (nothing for a format without one).
    static func read(_ file: FileDescriptor, _ format: SourceFormat) -> EmbeddedMetadata {
        readers[format]?(file) ?? EmbeddedMetadata()
    }
}
