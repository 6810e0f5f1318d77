import Containers

/// What tells a camera RAW from a plain TIFF when both begin with TIFF's own header (NEF, ARW,
/// PEF, DNG, ERF, 3FR, MEF, DCR, SRW, ...), read from the IFDs that lie in a file's first bytes:
/// the DNG version tag; an image of sensor data (photometric CFA or LinearRaw) or one compressed
/// by a RAW-only scheme; or TIFF/EP's layout, a camera's name in IFD0 with the full-size image in a
/// SubIFD (an ARW's sensor IFD lies far past the head). Pure: the bytes given, nothing else.
enum TIFFRawMarks {
    static let dngVersion = 0xC612
    static let make = 0x010F
    static let subIFDs = 0x014A
    static let photometric = 0x0106
    static let compression = 0x0103
    /// Colour filter array (TIFF/EP, DNG) and DNG's linear raw.
    static let sensorPhotometrics: Set<Int> = [32803, 34892]
    /// Compressions only RAW writers use (LibRaw's list): Nikon NEF, Sony ARW, Kodak DCR/KDC,
    /// Pentax PEF, Samsung SRW, Panasonic.
    static let rawCompressions: Set<Int> = [34713, 32767, 65000, 65535, 32769, 32770, 32772, 34316, 262]
    static let maxEntries = 500

    /// Whether `head`, a TIFF-signature file's first bytes, shows any of the marks above.
    static func found(in head: [UInt8]) -> Bool {
        guard head.count >= 8 else { return false }
        let order: ByteOrder = head[0] == 0x49 ? .littleEndian : .bigEndian
        var pending = [order.integer(head, at: 4, count: 4)]
        var visited: Set<Int> = []
        while let offset = pending.popLast(), visited.count < 16 {
            guard offset >= 8, offset + 2 <= head.count, visited.insert(offset).inserted else { continue }
            let count = min(order.integer(head, at: offset, count: 2), maxEntries)
            var hasMake = false, subIFDOffsets: [Int] = []
            for index in 0..<count {
                let entry = offset + 2 + 12 * index
                guard entry + 12 <= head.count else { break }
                let tag = order.integer(head, at: entry, count: 2)
                let type = order.integer(head, at: entry + 2, count: 2)
                let values = order.integer(head, at: entry + 4, count: 4)
                let short = type == 3 ? order.integer(head, at: entry + 8, count: 2) : order.integer(head, at: entry + 8, count: 4)
                switch tag {
                case dngVersion: return true
                case photometric where sensorPhotometrics.contains(short): return true
                case compression where rawCompressions.contains(short): return true
                case make: hasMake = values > 1
                case subIFDs where type == 4 || type == 13:
                    let at = values == 1 ? entry + 8 : order.integer(head, at: entry + 8, count: 4)
                    subIFDOffsets = (0..<min(values, 8)).map { order.integer(head, at: at + 4 * $0, count: 4) }
                default: break
                }
            }
            if offset == order.integer(head, at: 4, count: 4), hasMake, !subIFDOffsets.isEmpty { return true }
            pending += subIFDOffsets
            pending.append(order.integer(head, at: offset + 2 + 12 * count, count: 4))
        }
        return false
    }
}
