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
    }

    static func find(in file: FileDescriptor) -> Found? {
        guard let size = try? file.status().size, let header = try? file.read(upTo: 8, at: 0), header.count == 8 else { return nil }
        let little: Bool
        switch (header[0], header[1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        func u16(_ b: [UInt8], _ i: Int) -> Int { little ? Int(b[i]) | Int(b[i + 1]) << 8 : Int(b[i]) << 8 | Int(b[i + 1]) }
        func u32(_ b: [UInt8], _ i: Int) -> Int64 {
            let v = little ? UInt32(b[i]) | UInt32(b[i + 1]) << 8 | UInt32(b[i + 2]) << 16 | UInt32(b[i + 3]) << 24
                : UInt32(b[i]) << 24 | UInt32(b[i + 1]) << 16 | UInt32(b[i + 2]) << 8 | UInt32(b[i + 3])
            return Int64(v)
        }
        var queue: [Int64] = [u32(header, 4)]
        var seen: Set<Int64> = []
        var candidates: [Candidate] = []
        var orientation = Orientation.up
        var first = true
        while let ifd = queue.first, seen.count < 64 {
            queue.removeFirst()
            guard ifd >= 8, ifd + 2 <= size, seen.insert(ifd).inserted,
                  let countBytes = try? file.read(upTo: 2, at: ifd), countBytes.count == 2 else { first = false; continue }
            let count = min(1000, u16(countBytes, 0))
            guard let entries = try? file.read(upTo: count * 12 + 4, at: ifd + 2), entries.count == count * 12 + 4 else { first = false; continue }
            var compression = 0, jpegOffset: Int64 = 0, jpegLength: Int64 = 0, stripOffset: Int64 = 0, stripLength: Int64 = 0
            for e in 0..<count {
                let at = e * 12
                let tag = u16(entries, at), type = u16(entries, at + 2), n = u32(entries, at + 4)
                let value = type == 3 ? Int64(u16(entries, at + 8)) : u32(entries, at + 8)
                switch tag {
                case 0x0103: compression = Int(value)
                case 0x0112 where first: orientation = Orientation(exifValue: Int(value))
                case 0x0201: jpegOffset = value
                case 0x0202: jpegLength = value
                case 0x0111 where n == 1: stripOffset = value
                case 0x0117 where n == 1: stripLength = value
                case 0x014A:  // SubIFDs: one inline, or an array of offsets
                    if n == 1 { queue.append(value) } else if n <= 16, let list = try? file.read(upTo: Int(n) * 4, at: value), list.count == Int(n) * 4 {
                        for k in 0..<Int(n) { queue.append(u32(list, k * 4)) }
                    }
                default: break
                }
            }
            if jpegLength > 0 { candidates.append(Candidate(offset: jpegOffset, length: Int(jpegLength))) }
            if (compression == 6 || compression == 7), stripLength > 0 { candidates.append(Candidate(offset: stripOffset, length: Int(stripLength))) }
            if first { queue.append(u32(entries, count * 12)) }  // IFD1 follows IFD0
            first = false
        }
        let valid = candidates.filter { $0.offset > 0 && $0.length > 4 && $0.length <= 64 << 20 && $0.offset + Int64($0.length) <= size }
        return valid.isEmpty ? nil : Found(candidates: valid, orientation: orientation)
    }
}
