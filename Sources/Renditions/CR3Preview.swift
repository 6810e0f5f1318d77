import Posix

/// The preview JPEG of a Canon CR3 found without LibRaw (0.20 refuses some CR3s, e.g. crop-mode
/// or pruned files, whose previews are intact). CR3 is an ISO base media file: a top-level `uuid`
/// box (eaf42b5e-1c98-4b88-b9fb-b7dc406e4d16) holds a `PRVW` box: 4 unknown bytes, 2 unknown, width
/// and height (16-bit big-endian), 2 unknown, the JPEG's length (32-bit), then the JPEG (1620x1080
/// on current bodies). The orientation is IFD0's of the TIFF structure in `moov`'s `CMT1` box.
enum CR3Preview {
    static let previewUUID: [UInt8] = [0xea, 0xf4, 0x2b, 0x5e, 0x1c, 0x98, 0x4b, 0x88, 0xb9, 0xfb, 0xb7, 0xdc, 0x40, 0x6e, 0x4d, 0x16]
    static let maxJPEGBytes = 64 << 20

    struct Found {
        var jpeg: [UInt8]
        var orientation: Orientation
    }

    static func find(in file: FileDescriptor) -> Found? {
        guard let size = try? file.status().size else { return nil }
        var offset: Int64 = 0
        var jpeg: [UInt8]?
        var orientation = Orientation.up
        for _ in 0..<64 {  // top-level boxes: ftyp, moov, a few uuid, free, mdat
            guard offset + 8 <= size, let header = try? file.read(upTo: 32, at: offset), header.count >= 8 else { break }
            var boxSize = Int64(be32(header, 0))
            let type = String(decoding: header[4..<8], as: UTF8.self)
            if boxSize == 1, header.count >= 16 { boxSize = Int64(bitPattern: UInt64(be32(header, 8)) << 32 | UInt64(be32(header, 12))) }
            if boxSize == 0 { boxSize = size - offset }
            guard boxSize >= 8, offset + boxSize <= size else { break }
            if type == "moov", boxSize <= 16 << 20, let moov = try? file.read(upTo: Int(boxSize), at: offset) {
                orientation = cmt1Orientation(in: moov) ?? orientation
            } else if type == "uuid", header.count >= 24, Array(header[8..<24]) == previewUUID,
                      let head = try? file.read(upTo: 64, at: offset + 24),
                      let p = find(Array("PRVW".utf8), in: head), p + 20 <= head.count {
                let length = Int(be32(head, p + 16))
                let start = offset + 24 + Int64(p + 20)
                if length > 4, length <= maxJPEGBytes, start + Int64(length) <= offset + boxSize,
                   let bytes = try? file.read(upTo: length, at: start), bytes.count == length, bytes.starts(with: [0xFF, 0xD8]) {
                    jpeg = bytes
                }
            }
            offset += boxSize
        }
        return jpeg.map { Found(jpeg: $0, orientation: orientation) }
    }

    /// IFD0 Orientation of the `CMT1` box (a TIFF structure) somewhere in `moov`.
    private static func cmt1Orientation(in moov: [UInt8]) -> Orientation? {
        guard let p = find(Array("CMT1".utf8), in: moov), p >= 4 else { return nil }
        let length = Int(be32(moov, p - 4))
        guard length > 8, p - 4 + length <= moov.count else { return nil }
        return Orientation.read(exif: Array(moov[(p + 4)..<(p - 4 + length)]))
    }

    private static func be32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3])
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for i in 0...(haystack.count - needle.count) where haystack[i] == needle[0] && Array(haystack[i..<(i + needle.count)]) == needle {
            return i
        }
        return nil
    }
}
