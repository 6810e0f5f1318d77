import Containers
import PhotoSource
import Posix

/// The JPEGs of a Canon CRW found without LibRaw: CRW is a CIFF heap (byte order, header length,
/// "HEAPCCDR"; Canon bodies 1998-2004) whose records may hold the JpgFromRaw (0x2007) and the small
/// ThumbnailImage (0x2008). LibRaw knows only the first, so when the sensor data is gone and the
/// JpgFromRaw too, the thumbnail record is the picture there is. A heap's last 4 bytes give the
/// offset of its record table: a 16-bit count, then 10-byte records (type, length, offset, all
/// relative to the heap); types 0x28xx and 0x30xx are heaps of their own. Rotation: record 0x1810.
enum CIFFPreview {
    static let jpegRecords: Set<Int> = [0x2007, 0x2008]
    static let imageInfo = 0x1810
    static let maxJPEGBytes = 64 << 20
    static let maxDepth = 4
    static let maxRecords = 1000

    /// The largest JPEG record of the CRW open at `file`, or nil when it has none (or is no CRW).
    static func find(in file: FileDescriptor) -> EmbeddedJPEG? {
        guard let head = try? file.read(upTo: 14, at: 0), head.count == 14, Array(head[6..<14]) == Array("HEAPCCDR".utf8),
              let size = try? file.status().size else { return nil }
        let order: ByteOrder = head[0] == 0x49 ? .littleEndian : .bigEndian
        let heapStart = Int64(order.integer(head, at: 2, count: 4))
        var best: [UInt8]?
        var orientation = Orientation.up
        func walk(_ start: Int64, _ length: Int64, depth: Int) {
            guard depth <= maxDepth, length >= 6, start >= 0, start + length <= size,
                  let tail = try? file.read(upTo: 4, at: start + length - 4), tail.count == 4 else { return }
            let table = start + Int64(order.integer(tail))
            guard let countBytes = try? file.read(upTo: 2, at: table), countBytes.count == 2 else { return }
            let count = min(order.integer(countBytes), maxRecords)
            guard let records = try? file.read(upTo: count * 10, at: table + 2) else { return }
            for index in 0..<(records.count / 10) {
                let type = order.integer(records, at: index * 10, count: 2)
                guard type & 0xC000 == 0 else { continue }   // the value is in the record itself
                let recordLength = Int64(order.integer(records, at: index * 10 + 2, count: 4))
                let recordStart = start + Int64(order.integer(records, at: index * 10 + 6, count: 4))
                guard recordStart + recordLength <= start + length else { continue }
                if type >> 8 == 0x28 || type >> 8 == 0x30 {
                    walk(recordStart, recordLength, depth: depth + 1)
                } else if jpegRecords.contains(type), recordLength > Int64(best?.count ?? 4), recordLength <= Int64(maxJPEGBytes),
                          let jpeg = try? file.read(upTo: Int(recordLength), at: recordStart), jpeg.count == Int(recordLength),
                          jpeg.starts(with: [0xFF, 0xD8]) {
                    best = jpeg
                } else if type == imageInfo, recordLength >= 16, let info = try? file.read(upTo: 16, at: recordStart), info.count == 16 {
                    orientation = [90: .right, 180: .down, 270: .left][order.integer(info, at: 12, count: 4)] ?? .up
                }
            }
        }
        walk(heapStart, size - heapStart, depth: 0)
        return best.map { EmbeddedJPEG(jpeg: $0, orientation: orientation) }
    }
}
