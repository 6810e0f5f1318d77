import Containers
import PhotoSource

/// The EXIF entries properties are made of, gathered from TIFF structures wherever they lie (a
/// TIFF's or RAW's IFDs anywhere in a file of any size, a CR3's three boxes, a HEIF's Exif item)
/// and written out as one small EXIF block. libexif stays the one EXIF parser, although it reads
/// at most 64 KiB of a block and knows nothing of IFDs in separate structures.
struct CompactEXIF {
    enum Directory: CaseIterable { case ifd0, exif, gps }

    /// The tags `EXIFMetadata` reads, by directory.
    static let wanted: [Directory: Set<Int32>] = [
        .ifd0: [EXIFMetadata.make, EXIFMetadata.model, EXIFMetadata.orientationTag],
        .exif: [EXIFMetadata.dateTimeOriginal, EXIFMetadata.dateTimeDigitized, EXIFMetadata.offsetTimeOriginal, EXIFMetadata.offsetTimeDigitized],
        .gps: [EXIFMetadata.latitudeRef, EXIFMetadata.latitude, EXIFMetadata.longitudeRef, EXIFMetadata.longitude],
    ]
    static let exifPointer = 0x8769, gpsPointer = 0x8825
    /// A longer value (no wanted tag has one) is not copied.
    static let maxValueBytes = 1024

    private struct Value { var type: Int; var count: Int; var littleEndian: [UInt8] }
    private var directories: [Directory: [Int: Value]] = [:]

    var isEmpty: Bool { directories.values.allSatisfy(\.isEmpty) }

    /// Adds IFD0 of `tiff` and the EXIF and GPS IFDs it points to. Returns IFD0's entries (a
    /// caller that also wants the image's size need not read them again).
    @discardableResult
    mutating func addIFD0(of tiff: TIFFStructure) -> [TIFFStructure.Entry]? {
        guard let ifd0 = tiff.directory(at: tiff.firstIFD)?.entries else { return nil }
        add(.ifd0, ifd0, of: tiff)
        for entry in ifd0 {
            switch entry.tag {
            case Self.exifPointer: add(.exif, of: tiff, at: tiff.number(of: entry))
            case Self.gpsPointer: add(.gps, of: tiff, at: tiff.number(of: entry))
            default: break
            }
        }
        return ifd0
    }

    /// Adds the entries of the IFD at `offset` of `tiff` (or its first) as `directory`, and
    /// returns them.
    @discardableResult
    mutating func add(_ directory: Directory, of tiff: TIFFStructure, at offset: Int?) -> [TIFFStructure.Entry]? {
        guard let entries = tiff.directory(at: offset.map(Int64.init) ?? tiff.firstIFD)?.entries else { return nil }
        add(directory, entries, of: tiff)
        return entries
    }

    /// Wanted entries not already known (what was added first wins), in little-endian order.
    private mutating func add(_ directory: Directory, _ entries: [TIFFStructure.Entry], of tiff: TIFFStructure) {
        let wanted = Self.wanted[directory] ?? []
        for entry in entries where wanted.contains(Int32(entry.tag)) && directories[directory]?[entry.tag] == nil {
            guard let value = tiff.value(of: entry), value.count <= Self.maxValueBytes else { continue }
            let width = Self.swapWidth[entry.type] ?? 1
            let ordered = tiff.order == .littleEndian || width == 1 ? value
                : stride(from: 0, to: value.count, by: width).flatMap { value[$0..<min($0 + width, value.count)].reversed() }
            directories[directory, default: [:]][entry.tag] = Value(type: entry.type, count: entry.count, littleEndian: ordered)
        }
    }

    /// The byte order of each type's numbers: SHORT and SSHORT 2, LONG, SLONG, FLOAT and each half
    /// of a (S)RATIONAL 4, DOUBLE 8; bytes and text have none.
    private static let swapWidth: [Int: Int] = [3: 2, 8: 2, 4: 4, 9: 4, 11: 4, 5: 4, 10: 4, 12: 8]

    /// "Exif\0\0", then a little-endian TIFF structure: IFD0 (with pointers to the EXIF and GPS
    /// IFDs that have entries), those IFDs, then the values too long for their entries.
    var block: [UInt8] {
        var ifd0 = directories[.ifd0] ?? [:]
        let exif = directories[.exif] ?? [:], gps = directories[.gps] ?? [:]
        let ifdBytes = { (entries: [Int: Value]) in entries.isEmpty ? 0 : 2 + entries.count * 12 + 4 }
        // Pointers take their place in IFD0 before anything is laid out.
        if !exif.isEmpty { ifd0[Self.exifPointer] = Value(type: 4, count: 1, littleEndian: [0, 0, 0, 0]) }
        if !gps.isEmpty { ifd0[Self.gpsPointer] = Value(type: 4, count: 1, littleEndian: [0, 0, 0, 0]) }
        let exifOffset = 8 + ifdBytes(ifd0), gpsOffset = exifOffset + ifdBytes(exif)
        if !exif.isEmpty { ifd0[Self.exifPointer]?.littleEndian = Self.le32(exifOffset) }
        if !gps.isEmpty { ifd0[Self.gpsPointer]?.littleEndian = Self.le32(gpsOffset) }

        var tiff: [UInt8] = [0x49, 0x49, 0x2A, 0x00] + Self.le32(8)
        var values: [UInt8] = []
        let valuesOffset = gpsOffset + ifdBytes(gps)
        for entries in [ifd0, exif, gps] where !entries.isEmpty {
            tiff += Self.le16(entries.count)
            for (tag, value) in entries.sorted(by: { $0.key < $1.key }) {
                tiff += Self.le16(tag) + Self.le16(value.type) + Self.le32(value.count)
                if value.littleEndian.count <= 4 {
                    tiff += value.littleEndian + [UInt8](repeating: 0, count: 4 - value.littleEndian.count)
                } else {
                    tiff += Self.le32(valuesOffset + values.count)
                    values += value.littleEndian
                    if values.count % 2 == 1 { values.append(0) }
                }
            }
            tiff += Self.le32(0)
        }
        return JPEGSegments.exifHeader + tiff + values
    }

    private static func le32(_ value: Int) -> [UInt8] { ByteOrder.littleEndian.bytes(of: value, count: 4) }
    private static func le16(_ value: Int) -> [UInt8] { ByteOrder.littleEndian.bytes(of: value, count: 2) }
}

extension TIFFStructure {
    /// A TIFF structure that begins `skipping` bytes into `block` (an EXIF block may begin with
    /// JPEG's "Exif\0\0", which is skipped too).
    init?(exif block: [UInt8], skipping: Int = 0) {
        guard skipping >= 0, skipping < block.count else { return nil }
        var bytes = Array(block[skipping...])
        if bytes.starts(with: JPEGSegments.exifHeader) { bytes.removeFirst(JPEGSegments.exifHeader.count) }
        self.init(.bytes(bytes))
    }

}
