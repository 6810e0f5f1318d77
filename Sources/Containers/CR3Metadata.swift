import Posix

/// The metadata boxes of a CR3: `moov` holds `CMT1` (IFD0 as a TIFF structure), `CMT2` (the EXIF
/// IFD), `CMT3` (Canon's maker notes) and `CMT4` (the GPS IFD), each a whole TIFF structure.
public enum CR3Metadata {
    /// Larger `moov` boxes (a few tens of KiB on current bodies) are not read.
    public static let maxMoovBytes = 16 << 20

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
    public static func tiffBox(_ number: Int, in moov: [UInt8]) -> [UInt8]? {
        guard let p = moov.firstRange(ofBytes: Array("CMT\(number)".utf8))?.lowerBound, p >= 4 else { return nil }
        let length = ByteOrder.bigEndian.integer(moov, at: p - 4, count: 4)
        guard length > 8, p - 4 + length <= moov.count else { return nil }
        return Array(moov[(p + 4)..<(p - 4 + length)])
    }
}
