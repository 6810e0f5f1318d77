import Posix

/// Where a file's picture lies apart from its metadata: what a content id is made of, so that tags
/// written into the file (keywords, a rating, a date fixed with exiftool) leave it as it was. The
/// walks read headers only; the picture's bytes are read by whoever hashes them.
public enum PictureData {
    /// Byte ranges of the file, in the order they are hashed; or, for a JPEG, everything from its
    /// first SOS marker up to and including its EOI, whose place a walk of the scans finds as they
    /// are read (`JPEGScanEnd`).
    public enum Region: Equatable, Sendable {
        case ranges([Range<Int64>])
        case jpegScans(from: Int64)
    }

    /// JPEG: the first scan's SOS marker, reached by the segment lengths from SOI (APPn, DQT, DHT,
    /// SOF...: metadata and tables before it are left out).
    public static func jpeg(_ file: FileDescriptor) -> Region? {
        var offset: Int64 = 2
        for _ in 0..<10_000 {
            guard let header = try? file.read(upTo: 4, at: offset), header.count == 4, header[0] == 0xFF else { return nil }
            if header[1] == 0xFF { offset += 1; continue }  // fill bytes before a marker
            if header[1] == 0xDA { return .jpegScans(from: offset) }
            offset += 2 + Int64(ByteOrder.bigEndian.integer(header[2..<4]))
        }
        return nil
    }

    /// PNG: the content of its IDAT chunks (the compressed pixels; tEXt, iTXt, eXIf left out).
    public static func png(_ file: FileDescriptor) -> Region? {
        var ranges: [Range<Int64>] = []
        FileChunks.walk(file, .png) { type, contentOffset, length in
            if type == "IDAT" { ranges.append(contentOffset..<contentOffset + length) }
            return true
        }
        return ranges.isEmpty ? nil : .ranges(ranges)
    }

    /// WebP: the content of its image chunks: VP8 or VP8L, ALPH, an animation's ANMF frames.
    public static func webp(_ file: FileDescriptor) -> Region? {
        var ranges: [Range<Int64>] = []
        FileChunks.walk(file, .riff) { type, contentOffset, length in
            if ["VP8 ", "VP8L", "ALPH", "ANMF"].contains(type) { ranges.append(contentOffset..<contentOffset + length) }
            return true
        }
        return ranges.isEmpty ? nil : .ranges(ranges)
    }

    /// ISO base media (MP4, QuickTime, 3GP, CR3): the content of its top-level `mdat` boxes (the
    /// samples; `moov`, where tags are written, left out).
    public static func mediaData(_ file: FileDescriptor) -> Region? {
        var ranges: [Range<Int64>] = []
        ISOBaseMediaFile.walkTopLevelBoxes(of: file) { box in
            if box.type == "mdat" { ranges.append(box.contentOffset..<box.offset + box.size) }
        }
        return ranges.isEmpty ? nil : .ranges(ranges)
    }

    /// GIF: the colour table and each frame's image descriptor, local colour table and LZW data,
    /// read whole up to 64 MiB (extensions, where comments and XMP live, left out).
    public static func gif(_ file: FileDescriptor) -> Region? {
        guard let size = try? file.status().size, size <= 64 << 20, let bytes = try? file.read(upTo: Int(size), at: 0),
              bytes.count >= 13, bytes.starts(with: Array("GIF".utf8)) else { return nil }
        func colourTableBytes(_ flags: UInt8) -> Int { flags & 0x80 == 0 ? 0 : 3 << (Int(flags & 7) + 1) }
        var ranges: [Range<Int64>] = [6..<Int64(min(bytes.count, 13 + colourTableBytes(bytes[10])))]
        var at = 13 + colourTableBytes(bytes[10])
        /// Past the data sub-blocks starting at `from`, up to and including their terminator.
        func subBlocksEnd(_ from: Int) -> Int? {
            var at = from
            while at < bytes.count {
                if bytes[at] == 0 { return at + 1 }
                at += 1 + Int(bytes[at])
            }
            return nil
        }
        while at < bytes.count {
            switch bytes[at] {
            case 0x21:  // an extension: label, then sub-blocks
                guard let end = subBlocksEnd(at + 2) else { return .ranges(ranges) }
                at = end
            case 0x2C:  // an image: descriptor, local colour table, LZW minimum code size, sub-blocks
                guard at + 10 <= bytes.count, let end = subBlocksEnd(at + 10 + colourTableBytes(bytes[at + 9]) + 1) else { return .ranges(ranges) }
                ranges.append(Int64(at)..<Int64(end))
                at = end
            default:  // the trailer, or junk after the last frame
                return .ranges(ranges)
            }
        }
        return .ranges(ranges)
    }
}
