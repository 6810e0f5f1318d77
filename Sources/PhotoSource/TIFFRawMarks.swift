import Containers

/// What tells a camera RAW from a plain TIFF when both begin with TIFF's own header (NEF, ARW,
/// PEF, DNG, ERF, 3FR, MEF, DCR, SRW, ...), read from the IFDs that lie in a file's first bytes:
/// the DNG version tag; an image of sensor data (photometric CFA or LinearRaw) or one compressed
/// by a RAW-only scheme; or TIFF/EP's layout, a camera's name in IFD0 with the full-size image in a
/// SubIFD (an ARW's sensor IFD lies far past the head). Pure: the bytes given, nothing else.
enum TIFFRawMarks {
    static let dngVersion = 0xC612
    static let make = 0x010F
    static let photometric = 0x0106
    static let compression = 0x0103
    /// Colour filter array (TIFF/EP, DNG) and DNG's linear raw.
    static let sensorPhotometrics: Set<Int> = [32803, 34892]
    /// Compressions only RAW writers use (LibRaw's list): Nikon NEF, Sony ARW, Kodak DCR/KDC,
    /// Pentax PEF, Samsung SRW, Panasonic.
    static let rawCompressions: Set<Int> = [34713, 32767, 65000, 65535, 32769, 32770, 32772, 34316, 262]
    /// IFDs looked at, at most (a chain and SubIFDs within the head).
    static let maxDirectories = 16

    /// Whether `head`, a TIFF-signature file's first bytes, shows any of the marks above.
    static func found(in head: [UInt8]) -> Bool {
        guard let tiff = TIFFStructure(.bytes(head)) else { return false }
        var found = false
        tiff.walkDirectories(limit: maxDirectories, chain: .every) { offset, entries in
            let marked = entries.contains { entry in
                switch entry.tag {
                case dngVersion: true
                case photometric: tiff.number(of: entry).map(sensorPhotometrics.contains) ?? false
                case compression: tiff.number(of: entry).map(rawCompressions.contains) ?? false
                default: false
                }
            }
            let tiffEP = offset == tiff.firstIFD && entries.contains { $0.tag == make && $0.count > 1 }
                && entries.contains { $0.tag == TIFFStructure.subIFDsTag && !tiff.offsets(in: $0).isEmpty }
            found = marked || tiffEP
            return !found
        }
        return found
    }
}
