internal import CLibPNG

/// PNG files for thumbnails: pixels encoded by libpng (its simplified `png_image` API, which keeps
/// libpng's longjmp error handling inside libpng), with `tEXt` chunks spliced in after `IHDR`; and
/// the reverse, the `tEXt` chunks of a PNG, as a thumbnail's validity is checked by.
public enum PNG {
    public struct EncodingError: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// The 8-byte PNG signature.
    public static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// A PNG of `width`×`height` 8-bit pixels, `channels` 1 (grey) or 3 (RGB) bytes each, rows top
    /// to bottom without padding, followed by `text` as `tEXt` chunks (keywords 1-79 printable
    /// Latin-1 bytes, values without NUL) right after `IHDR`.
    public static func encode(pixels: [UInt8], width: Int, height: Int, channels: Int,
                              text: [(keyword: String, value: String)] = []) throws(EncodingError) -> [UInt8] {
        guard channels == 1 || channels == 3, width > 0, height > 0, width <= 1 << 20, height <= 1 << 20,
              pixels.count == width * height * channels else {
            throw EncodingError(description: "bad image: \(width)x\(height)x\(channels) with \(pixels.count) bytes")
        }
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        image.width = UInt32(width)
        image.height = UInt32(height)
        image.format = channels == 3 ? UInt32(PNG_FORMAT_RGB) : UInt32(PNG_FORMAT_GRAY)
        defer { png_image_free(&image) }

        // First call: how many bytes; second: the bytes.
        var size: png_alloc_size_t = 0
        let sized = pixels.withUnsafeBytes { png_image_write_to_memory(&image, nil, &size, 0, $0.baseAddress, 0, nil) }
        guard sized != 0, size > 0 else { throw EncodingError(description: "libpng: \(message(of: &image))") }
        var encoded = [UInt8](repeating: 0, count: Int(size))
        let written = encoded.withUnsafeMutableBytes { out in
            pixels.withUnsafeBytes { png_image_write_to_memory(&image, out.baseAddress, &size, 0, $0.baseAddress, 0, nil) }
        }
        guard written != 0 else { throw EncodingError(description: "libpng: \(message(of: &image))") }
        encoded.removeLast(encoded.count - Int(size))

        // IHDR is always first: signature (8) + length, type, 13 bytes of data, CRC.
        let afterHeader = 8 + 4 + 4 + 13 + 4
        guard encoded.count > afterHeader, Array(encoded[12..<16]) == Array("IHDR".utf8) else {
            throw EncodingError(description: "libpng wrote no IHDR first")
        }
        var chunks: [UInt8] = []
        for (keyword, value) in text {
            let key = Array(keyword.utf8), data = Array(value.utf8)
            guard (1...79).contains(key.count), key.allSatisfy({ (0x20...0x7E).contains($0) }), !data.contains(0) else {
                throw EncodingError(description: "bad tEXt keyword or value: \(keyword)")
            }
            chunks += chunk(type: "tEXt", data: key + [0] + data)
        }
        encoded.insert(contentsOf: chunks, at: afterHeader)
        return encoded
    }

    /// One chunk: big-endian length, type, data, CRC-32 of type and data.
    static func chunk(type: String, data: [UInt8]) -> [UInt8] {
        let typeAndData = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + typeAndData + bigEndian(crc32(typeAndData))
    }

    /// The `tEXt` chunks of `png` as keyword → value (first of a keyword wins), or nil when `png` is
    /// not a whole, well-formed PNG (bad signature, a chunk that runs past the end or has a wrong
    /// CRC, no `IEND`).
    public static func textChunks(in png: [UInt8]) -> [String: String]? {
        guard png.count >= 8, Array(png[0..<8]) == signature else { return nil }
        var texts: [String: String] = [:]
        var offset = 8
        while offset + 12 <= png.count {
            let length = Int(readBigEndian(png, at: offset))
            guard length <= png.count - offset - 12 else { return nil }
            let typeAndData = Array(png[(offset + 4)..<(offset + 8 + length)])
            guard readBigEndian(png, at: offset + 8 + length) == crc32(typeAndData) else { return nil }
            let type = String(decoding: typeAndData[0..<4], as: UTF8.self)
            if type == "IEND" { return texts }
            if type == "tEXt", let zero = typeAndData[4...].firstIndex(of: 0) {
                // tEXt is Latin-1: each byte is the code point of the same value.
                func latin1(_ bytes: ArraySlice<UInt8>) -> String { String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) })) }
                let keyword = latin1(typeAndData[4..<zero]), value = latin1(typeAndData[(zero + 1)...])
                if texts[keyword] == nil { texts[keyword] = value }
            }
            offset += 12 + length
        }
        return nil
    }

    /// CRC-32 as PNG (ISO 3309, ITU-T V.42) defines it: reflected polynomial 0xEDB88320.
    public static func crc32<C: Collection>(_ bytes: C) -> UInt32 where C.Element == UInt8 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }

    private static let crcTable: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }

    private static func readBigEndian(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | UInt32($1) }
    }

    private static func message(of image: inout png_image) -> String {
        withUnsafeBytes(of: &image.message) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
    }
}
