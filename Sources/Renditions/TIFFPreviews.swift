import Containers
import Posix

/// The embedded JPEG previews of a TIFF-based RAW (DNG, NEF, ARW, ...) found by walking its IFDs
/// without LibRaw, for the files LibRaw cannot open (a DNG whose raw data is JPEG XL, a newer
/// camera): IFD0 and IFD1, SubIFDs, and each IFD's JPEGInterchangeFormat/Length or single JPEG
/// strip (compression 6 or 7). Bounded: at most 64 IFDs of at most 1000 entries each, no IFD
/// twice, everything checked against the file's size.
enum TIFFPreviews {
    struct Candidate { var offset: Int64; var length: Int }

    struct Found {
        var candidates: [Candidate]
        var orientation: Orientation
        /// IFD0's ICC profile: the colours the camera rendered its previews in.
        var iccProfile: [UInt8]?
    }

    static func find(in file: FileDescriptor) -> Found? {
        guard let size = try? file.status().size, let tiff = TIFFStructure(.file(file, base: 0)) else { return nil }
        var candidates: [Candidate] = []
        var orientation = Orientation.up
        var iccProfile: [UInt8]?
        tiff.walkDirectories(limit: 64, chain: .ofFirst) { offset, entries in
            let first = offset == tiff.firstIFD
            var compression = 0, jpegOffset = 0, jpegLength = 0, stripOffset = 0, stripLength = 0
            for entry in entries {
                let value = tiff.number(of: entry) ?? 0
                switch entry.tag {
                case 0x0103: compression = value
                case 0x0112 where first: orientation = Orientation(exifValue: value)
                case 0x8773 where first: iccProfile = tiff.value(of: entry)
                case 0x0201: jpegOffset = value
                case 0x0202: jpegLength = value
                case 0x0111 where entry.count == 1: stripOffset = value
                case 0x0117 where entry.count == 1: stripLength = value
                default: break
                }
            }
            if jpegLength > 0 { candidates.append(Candidate(offset: Int64(jpegOffset), length: jpegLength)) }
            if (compression == 6 || compression == 7), stripLength > 0 { candidates.append(Candidate(offset: Int64(stripOffset), length: stripLength)) }
            return true
        }
        let valid = candidates.filter { $0.offset > 0 && $0.length > 4 && $0.length <= 64 << 20 && $0.offset + Int64($0.length) <= size }
        return valid.isEmpty ? nil : Found(candidates: valid, orientation: orientation, iccProfile: iccProfile)
    }
}
