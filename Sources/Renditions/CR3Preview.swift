import PhotoSource
import Posix

/// The preview JPEG of a Canon CR3 found without LibRaw (0.20 refuses some CR3s, e.g. crop-mode
/// or pruned files, whose previews are intact). CR3 is an ISO base media file: a top-level `uuid`
/// box (eaf42b5e-1c98-4b88-b9fb-b7dc406e4d16) holds a `PRVW` box: 4 unknown bytes, 2 unknown, width
/// and height (16-bit big-endian), 2 unknown, the JPEG's length (32-bit), then the JPEG (1620x1080
/// on current bodies). The orientation is IFD0's of the TIFF structure in `moov`'s `CMT1` box.
enum CR3Preview {
    static let previewUUID: [UInt8] = [0xea, 0xf4, 0x2b, 0x5e, 0x1c, 0x98, 0x4b, 0x88, 0xb9, 0xfb, 0xb7, 0xdc, 0x40, 0x6e, 0x4d, 0x16]
    static let maxJPEGBytes = 64 << 20

    static func find(in file: FileDescriptor) -> EmbeddedJPEG? {
        var jpeg: [UInt8]?
        var orientation = Orientation.up
        ISOBaseMediaFile.walkTopLevelBoxes(of: file) { box in
            if box.type == "moov", let moov = ISOBaseMediaFile.read(box, from: file, limit: CR3Metadata.maxMoovBytes) {
                orientation = CR3Metadata.tiffBox(1, in: moov).map { Orientation.read(exif: $0) } ?? orientation
            } else if box.type == "uuid", box.header.count >= 24, Array(box.header[8..<24]) == previewUUID,
                      let head = try? file.read(upTo: 64, at: box.offset + 24),
                      let p = head.firstRange(of: Array("PRVW".utf8))?.lowerBound, p + 20 <= head.count {
                let length = ByteOrder.bigEndian.integer(head, at: p + 16, count: 4)
                let start = box.offset + 24 + Int64(p + 20)
                if length > 4, length <= maxJPEGBytes, start + Int64(length) <= box.offset + box.size,
                   let bytes = try? file.read(upTo: length, at: start), bytes.count == length, bytes.starts(with: [0xFF, 0xD8]) {
                    jpeg = bytes
                }
            }
        }
        return jpeg.map { EmbeddedJPEG(jpeg: $0, orientation: orientation) }
    }
}

/// The metadata boxes of a CR3: `moov` holds `CMT1` (IFD0 as a TIFF structure), `CMT2` (the EXIF
/// IFD), `CMT3` (Canon's maker notes) and `CMT4` (the GPS IFD), each a whole TIFF structure.
public enum CR3Metadata {
    /// Larger `moov` boxes (a few tens of KiB on current bodies) are not read.
    static let maxMoovBytes = 16 << 20

    /// The TIFF structures of CMT1, CMT2 and CMT4, those there are.
    public static func tiffBoxes(of file: FileDescriptor) -> (ifd0: [UInt8]?, exif: [UInt8]?, gps: [UInt8]?) {
        var result: (ifd0: [UInt8]?, exif: [UInt8]?, gps: [UInt8]?) = (nil, nil, nil)
        ISOBaseMediaFile.walkTopLevelBoxes(of: file) { box in
            guard box.type == "moov", let moov = ISOBaseMediaFile.read(box, from: file, limit: maxMoovBytes) else { return }
            result = (tiffBox(1, in: moov), tiffBox(2, in: moov), tiffBox(4, in: moov))
        }
        return result
    }

    /// The content of box `CMT<number>` somewhere in `moov`.
    static func tiffBox(_ number: Int, in moov: [UInt8]) -> [UInt8]? {
        guard let p = moov.firstRange(of: Array("CMT\(number)".utf8))?.lowerBound, p >= 4 else { return nil }
        let length = ByteOrder.bigEndian.integer(moov, at: p - 4, count: 4)
        guard length > 8, p - 4 + length <= moov.count else { return nil }
        return Array(moov[(p + 4)..<(p - 4 + length)])
    }
}
