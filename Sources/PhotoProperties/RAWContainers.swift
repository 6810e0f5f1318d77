import Containers
import PhotoSource
import Posix

extension EmbeddedMetadata {
    /// Camera RAW, told apart by its signature: RAF's, CR3's `ftyp`, else a TIFF structure's.
    static func raw(_ file: FileDescriptor) -> EmbeddedMetadata {
        guard let head = try? file.read(upTo: 16, at: 0), head.count == 16 else { return EmbeddedMetadata() }
        if head.starts(with: Array("FUJIFILMCCD-RAW".utf8)) { return raf(file) }
        if Array(head[4..<8]) == Array("ftyp".utf8) { return cr3(file) }
        return tiff(file)
    }

    /// Canon CR3: `moov`'s CMT1 (IFD0, with the image's size), CMT2 (the EXIF IFD) and CMT4
    /// (the GPS IFD), each a TIFF structure of its own.
    static func cr3(_ file: FileDescriptor) -> EmbeddedMetadata {
        let boxes = CR3Metadata.tiffBoxes(of: file)
        var entries = CompactEXIF()
        let ifd0 = boxes.ifd0.flatMap { TIFFStructure(exif: $0) }
        let ifd0Entries = ifd0.flatMap { entries.add(.ifd0, of: $0, at: nil) }
        if let exif = boxes.exif.flatMap({ TIFFStructure(exif: $0) }) { entries.add(.exif, of: exif, at: nil) }
        if let gps = boxes.gps.flatMap({ TIFFStructure(exif: $0) }) { entries.add(.gps, of: gps, at: nil) }
        return EmbeddedMetadata(entries, size: ifd0.flatMap { tiff in ifd0Entries.flatMap { fullResolutionSize($0, of: tiff) } })
    }

    /// Fujifilm RAF: a big-endian header gives, at byte 84, the offset and length of an embedded
    /// JPEG (whose APP1 holds the EXIF) and of the RAW header directory (whose entries, tag,
    /// length and value, include the cropped image size, height then width, at tag 0x111).
    static func raf(_ file: FileDescriptor) -> EmbeddedMetadata {
        guard let header = try? file.read(upTo: 100, at: 0), header.count == 100 else { return EmbeddedMetadata() }
        let be = { (bytes: [UInt8], at: Int, count: Int) in ByteOrder.bigEndian.integer(bytes, at: at, count: count) }
        var entries = CompactEXIF()
        if let block = JPEGSegments.read(file, at: Int64(be(header, 84, 4)))?.exif, let tiff = TIFFStructure(exif: block) { entries.addIFD0(of: tiff) }

        var size: PixelSize?
        let directoryLength = min(be(header, 96, 4), 65536)
        if let directory = try? file.read(upTo: directoryLength, at: Int64(be(header, 92, 4))), directory.count >= 4 {
            var at = 4
            for _ in 0..<min(be(directory, 0, 4), 1000) {
                guard at + 4 <= directory.count else { break }
                let tag = be(directory, at, 2), length = be(directory, at + 2, 2)
                if (tag == Self.rafCroppedSize || tag == Self.rafFullSize) && length == 4 && at + 8 <= directory.count {
                    let found = PixelSize(width: be(directory, at + 6, 2), height: be(directory, at + 4, 2))
                    if tag == Self.rafCroppedSize || size == nil { size = found }
                }
                at += 4 + length
            }
        }
        return EmbeddedMetadata(entries, size: size)
    }

    /// RAW header tags: RawImageFullSize (with borders) and RawImageCroppedSize.
    static let rafFullSize = 0x100, rafCroppedSize = 0x111
}
