import Containers
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
                      let p = head.firstRange(ofBytes: Array("PRVW".utf8))?.lowerBound, p + 20 <= head.count {
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
