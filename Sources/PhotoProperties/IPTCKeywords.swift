import Containers

/// IPTC keywords (IIM dataset 2:25) as a JPEG keeps them: in its APP13 "Photoshop 3.0" segments'
/// image resource blocks (`8BIM`), resource 0x0404 holding the IPTC-NAA records. Text is UTF-8
/// when dataset 1:90 says so (ESC % G) or when it is valid UTF-8, else Latin-1 (what exiftool
/// writes by default).
enum IPTCKeywords {
    static let iptcResource = 0x0404
    static let utf8Marker: [UInt8] = [0x1B, 0x25, 0x47]

    /// The keywords of a Photoshop resource block (the APP13 payloads after their header, joined).
    static func keywords(inResources block: [UInt8]) -> [[UInt8]] {
        var at = 0
        while at + 12 <= block.count, block[at..<(at + 4)].elementsEqual("8BIM".utf8) {
            let id = ByteOrder.bigEndian.integer(block, at: at + 4, count: 2)
            let nameLength = Int(block[at + 6])
            let sizeAt = at + 6 + (nameLength + 2) & ~1  // the Pascal name, with its length byte, padded to even
            guard sizeAt + 4 <= block.count else { break }
            let size = ByteOrder.bigEndian.integer(block, at: sizeAt, count: 4), dataAt = sizeAt + 4
            guard size >= 0, dataAt + size <= block.count else { break }
            if id == iptcResource { return keywords(inRecords: block[dataAt..<(dataAt + size)]) }
            at = dataAt + (size + 1) & ~1
        }
        return []
    }

    /// The 2:25 datasets of IPTC-NAA records, decoded as 1:90 says.
    static func keywords(inRecords records: ArraySlice<UInt8>) -> [[UInt8]] {
        var keywords: [ArraySlice<UInt8>] = [], isUTF8 = false, at = records.startIndex
        while at + 5 <= records.endIndex, records[at] == 0x1C {
            let (record, dataset) = (records[at + 1], records[at + 2])
            var length = ByteOrder.bigEndian.integer(records[(at + 3)..<(at + 5)]), dataAt = at + 5
            if length & 0x8000 != 0 {  // an extended dataset: the low bits count the length's own bytes
                let count = length & 0x7FFF
                guard (1...4).contains(count), dataAt + count <= records.endIndex else { break }
                length = ByteOrder.bigEndian.integer(records[dataAt..<(dataAt + count)])
                dataAt += count
            }
            guard dataAt + length <= records.endIndex else { break }
            let value = records[dataAt..<(dataAt + length)]
            if record == 1 && dataset == 90 { isUTF8 = value.starts(with: utf8Marker) }
            if record == 2 && dataset == 25 && keywords.count < Labels.maxEntries { keywords.append(value) }
            at = dataAt + length
        }
        return keywords.map { isUTF8 || String(validating: $0, as: UTF8.self) != nil ? Array($0) : latin1($0) }
    }

    static func latin1(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        bytes.flatMap { $0 < 0x80 ? [$0] : [0xC0 | $0 >> 6, 0x80 | $0 & 0x3F] }
    }
}
