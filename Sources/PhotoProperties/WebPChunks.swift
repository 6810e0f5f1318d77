import Containers
import PhotoSource
import Posix

extension EmbeddedMetadata {
    /// WebP: the RIFF chunks walked by their 8-byte headers, reading only VP8X's canvas size (or
    /// the frame header of a simple VP8 or VP8L file), the EXIF chunk (a TIFF structure, with or
    /// without "Exif\0\0": writers differ) and the XMP chunk.
    static func webp(_ file: FileDescriptor) -> EmbeddedMetadata {
        guard let riff = try? file.read(upTo: 12, at: 0), riff.count == 12 else { return EmbeddedMetadata() }
        let le = { (bytes: [UInt8], at: Int, count: Int) in ByteOrder.littleEndian.integer(bytes, at: at, count: count) }
        let end = Int64(le(riff, 4, 4)) + 8
        var offset: Int64 = 12, size: PixelSize?, entries = CompactEXIF(), xmp: [UInt8]?
        for _ in 0..<10_000 {
            guard offset + 8 <= end, let header = try? file.read(upTo: 8, at: offset), header.count == 8 else { break }
            let type = String(decoding: header[0..<4], as: UTF8.self), length = le(header, 4, 4)
            let data = { (count: Int) in (try? file.read(upTo: count, at: offset + 8)).flatMap { $0.count == count ? $0 : nil } }
            switch type {
            case "VP8X":
                if let d = data(10) { size = PixelSize(width: le(d, 4, 3) + 1, height: le(d, 7, 3) + 1) }
            case "VP8 " where size == nil:
                if let d = data(10), Array(d[3..<6]) == [0x9D, 0x01, 0x2A] { size = PixelSize(width: le(d, 6, 2) & 0x3FFF, height: le(d, 8, 2) & 0x3FFF) }
            case "VP8L" where size == nil:
                if let d = data(5), d[0] == 0x2F {
                    let bits = le(d, 1, 4)
                    size = PixelSize(width: (bits & 0x3FFF) + 1, height: (bits >> 14 & 0x3FFF) + 1)
                }
            case "EXIF" where length <= 1 << 20:
                if let block = data(length), let tiff = TIFFStructure(exif: block) { entries.addIFD0(of: tiff) }
            case "XMP " where length <= 1 << 20:
                xmp = data(length)
            default: break
            }
            offset += 8 + Int64(length) + Int64(length & 1)
        }
        return EmbeddedMetadata(entries, xmp: xmp, size: size)
    }
}
