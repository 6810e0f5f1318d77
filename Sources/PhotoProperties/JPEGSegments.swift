import Containers
import PhotoSource
import Posix

/// The start of a file, read in 64 KiB steps as far as it is needed (EXIF and the frame header
/// sit in the first segments; a few cameras put 300 KiB of other segments before the frame).
struct FilePrefix {
    let file: FileDescriptor
    /// Where in the file the bytes begin (a RAW's embedded JPEG), or 0.
    let base: Int64
    private(set) var bytes: [UInt8] = []
    private var atEnd = false
    static let step = 65536
    /// Never read further: the segments before the image data are far smaller.
    static let limit = 16 << 20

    init(_ file: FileDescriptor, base: Int64 = 0) {
        self.file = file
        self.base = base
    }

    /// `count` bytes from `offset`, or nil past the end of the file (or the limit).
    mutating func slice(_ offset: Int, _ count: Int) -> ArraySlice<UInt8>? {
        let end = offset + count
        guard offset >= 0, count >= 0, end <= Self.limit else { return nil }
        while bytes.count < end, !atEnd {
            let want = max(Self.step, end - bytes.count)
            guard let more = try? file.read(upTo: want, at: base + Int64(bytes.count)), !more.isEmpty else { atEnd = true; break }
            bytes += more
        }
        return end <= bytes.count ? bytes[offset..<end] : nil
    }

    mutating func byte(_ offset: Int) -> UInt8? { slice(offset, 1)?.first }

    mutating func bigEndian16(_ offset: Int) -> Int? {
        slice(offset, 2).map { ByteOrder.bigEndian.integer($0) }
    }
}

/// The segments of a JPEG up to its first frame header: the EXIF block (APP1 "Exif\0\0"), the XMP packet,
/// the Photoshop resources (APP13) and the frame's stored size (SOFn). Stray bytes between segments
/// (some cameras write them) are skipped.
struct JPEGSegments {
    var exif: [UInt8]?
    /// The XMP packet of the APP1 segment that begins with Adobe's namespace URI.
    var xmp: [UInt8]?
    var extendedXMP = ExtendedXMP()
    /// The image resource blocks of the APP13 "Photoshop 3.0" segments, joined (IPTC's among them).
    var photoshop: [UInt8]?
    var frameSize: (width: Int, height: Int)?

    static let exifHeader: [UInt8] = Array("Exif".utf8) + [0, 0]
    static let xmpHeader: [UInt8] = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0]
    static let photoshopHeader: [UInt8] = Array("Photoshop 3.0".utf8) + [0]

    /// The segments of the JPEG at `base` in `file` (0, or a RAW's embedded one), or nil when
    /// no JPEG starts there.
    static func read(_ file: FileDescriptor, at base: Int64 = 0) -> JPEGSegments? {
        var bytes = FilePrefix(file, base: base)
        guard bytes.slice(0, 3).map({ Array($0) == [0xFF, 0xD8, 0xFF] }) == true else { return nil }
        return scan(&bytes)
    }

    private static func scan(_ file: inout FilePrefix) -> JPEGSegments {
        var result = JPEGSegments()
        var position = 2, stray = 0, segments = 0
        while segments < 4096, let marker = file.byte(position) {
            guard marker == 0xFF else {
                stray += 1
                guard stray < 65536 else { break }
                position += 1
                continue
            }
            guard let code = file.byte(position + 1) else { break }
            switch code {
            case 0xFF: position += 1; continue                       // fill byte
            case 0x00, 0x01, 0xD0...0xD8: position += 2; continue     // no length
            case 0xD9, 0xDA: return result                          // end of image, start of scan
            default: break
            }
            guard let length = file.bigEndian16(position + 2), length >= 2 else { break }
            segments += 1
            let isFrame = (0xC0...0xCF).contains(code) && code != 0xC4 && code != 0xC8 && code != 0xCC
            if isFrame, let height = file.bigEndian16(position + 5), let width = file.bigEndian16(position + 7) {
                result.frameSize = (width, height)
                return result
            }
            if code == 0xE1, let payload = file.slice(position + 4, length - 2) {
                if result.exif == nil, payload.starts(with: exifHeader) { result.exif = Array(payload) }
                if result.xmp == nil, payload.starts(with: xmpHeader) { result.xmp = Array(payload.dropFirst(xmpHeader.count)) }
                if payload.starts(with: ExtendedXMP.header) { result.extendedXMP.add(payload) }
            }
            if code == 0xED, let payload = file.slice(position + 4, length - 2), payload.starts(with: photoshopHeader) {
                result.photoshop = (result.photoshop ?? []) + payload.dropFirst(photoshopHeader.count)
            }
            position += 2 + length
        }
        return result
    }
}
