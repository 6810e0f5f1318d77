import Containers
import PhotoSource
import Posix

extension EmbeddedMetadata {
    /// WebP: the RIFF chunks walked by their 8-byte headers, reading only VP8X's canvas size (or
    /// the frame header of a simple VP8 or VP8L file), the EXIF chunk (a TIFF structure, with or
    /// without "Exif\0\0": writers differ) and the XMP chunk.
    static func webp(_ file: FileDescriptor) -> EmbeddedMetadata {
        let le = { (bytes: [UInt8], at: Int, count: Int) in ByteOrder.littleEndian.integer(bytes, at: at, count: count) }
        var size: PixelSize?, entries = CompactEXIF(), xmp: [UInt8]?
        FileChunks.walk(file, .riff) { type, contentOffset, length in
            let data = { (count: Int) in (try? file.read(upTo: count, at: contentOffset)).flatMap { $0.count == count ? $0 : nil } }
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
                if let block = data(Int(length)), let tiff = TIFFStructure(exif: block) { entries.addIFD0(of: tiff) }
            case "XMP " where length <= 1 << 20:
                xmp = data(Int(length))
            default: break
            }
            return true
        }
        return EmbeddedMetadata(entries, xmp: xmp, size: size)
    }
}
