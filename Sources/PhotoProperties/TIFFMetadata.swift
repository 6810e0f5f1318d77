import Containers
import Posix

extension EmbeddedMetadata {
    /// TIFF and the TIFF-based RAWs (DNG, NEF, ARW, CR2, PEF, ORF, RW2…): the EXIF entries of IFD0
    /// and the EXIF and GPS IFDs, read where they lie, IFD0's XMP packet, and the full-resolution
    /// image's size.
    static func tiff(_ file: FileDescriptor) -> EmbeddedMetadata {
        guard let tiff = TIFFStructure(.file(file, base: 0)) else { return EmbeddedMetadata() }
        var entries = CompactEXIF()
        let ifd0 = entries.addIFD0(of: tiff) ?? []
        let xmp = ifd0.first { $0.tag == xmpPacket }.flatMap(tiff.value(of:))
        return EmbeddedMetadata(entries, xmp: xmp, size: tiff.magic == rw2Magic ? sensorArea(ifd0, of: tiff) : fullResolutionSize(ifd0, of: tiff))
    }

    static let newSubfileType = 0x00FE, imageWidth = 0x0100, imageLength = 0x0101, subIFDs = 0x014A, xmpPacket = 0x02BC
    /// Panasonic's RW2: its TIFF magic number, and its IFD0's sensor borders (top, left, bottom, right).
    static let rw2Magic = 0x55, sensorBorders = 0x0004...0x0007

    /// The stored size of the full-resolution image, as exiftool reports a RAW's: of
    /// the first of IFD0 (whose entries are `ifd0`) and its SubIFDs marked so (NewSubfileType 0,
    /// the default).
    static func fullResolutionSize(_ ifd0: [TIFFStructure.Entry], of tiff: TIFFStructure) -> PixelSize? {
        let subIFDOffsets = ifd0.first { $0.tag == subIFDs }.map { tiff.offsets(in: $0) } ?? []
        for entries in [ifd0] + subIFDOffsets.compactMap({ tiff.directory(at: $0)?.entries }) {
            func number(_ tag: Int) -> Int? { entries.first { $0.tag == tag }.flatMap(tiff.number(of:)) }
            guard (number(newSubfileType) ?? 0) == 0, let width = number(imageWidth), let height = number(imageLength),
                  width > 0, height > 0 else { continue }
            return PixelSize(width: width, height: height)
        }
        return nil
    }

    /// An RW2's image: the sensor inside its borders (what exiftool's ImageSize says).
    static func sensorArea(_ ifd0: [TIFFStructure.Entry], of tiff: TIFFStructure) -> PixelSize? {
        let borders = sensorBorders.compactMap { tag in ifd0.first { $0.tag == tag }.flatMap(tiff.number(of:)) }
        guard borders.count == 4 else { return nil }
        let (top, left, bottom, right) = (borders[0], borders[1], borders[2], borders[3])
        guard right > left, bottom > top else { return nil }
        return PixelSize(width: right - left, height: bottom - top)
    }
}
