import Containers

/// The formats assetfs shows, one table for the scanner, the renderer, the properties and the
/// catalog (which stores the raw value), recognised from a file's first bytes, never from its
/// name. Photos: every RAW container LibRaw reads by its own signature, and the TIFF-based ones
/// (NEF, ARW, DNG, PEF, ...) from a plain TIFF by the marks of their IFDs (`TIFFRawMarks`), or
/// failing those by a RAW extension. Videos: the containers FFmpeg opens, recognised as "may hold
/// video" (an MP4 of sound only is told apart by `ISOMediaTracks`); a file is a video only when
/// no photo format claims it (a HEIC Motion Photo is a photo). Pure: no I/O, no C library.
public enum SourceFormat: String, Sendable, CaseIterable {
    case jpeg, heif, avif, png, webp, gif, tiff, raw
    case quickTime = "mov", mp4, m4v, threeGPP = "3gp", matroska = "mkv", webM = "webm", avi
    case mpegTransportStream = "m2ts", mpegProgramStream = "mpg"

    /// Whether its renditions are poster frames and its properties a container's.
    public var isVideo: Bool { facts.isVideo }

    /// The formats of Motion Photos (a still with an MP4 inside: Google's, Samsung's).
    public var mayHoldMotion: Bool { self == .jpeg || self == .heif }

    /// The ISO base media files among the videos: their tracks can be listed without FFmpeg.
    public var isISOMedia: Bool { [.quickTime, .mp4, .m4v, .threeGPP].contains(self) }

    /// How many leading bytes `sniff` looks at (fewer is fine for a short file): enough for the
    /// IFDs a TIFF-based RAW puts first (one page read either way).
    public static let headLength = 16 << 10

    /// The format whose signature `head` (the file's first bytes, up to `headLength`) carries, or
    /// nil. `fileName` (the last path component, any case) only settles TIFF-signature files:
    /// a RAW extension makes them `.raw`, anything else `.tiff`.
    public static func sniff(_ head: [UInt8], fileName: [UInt8]) -> SourceFormat? {
        func at(_ offset: Int, _ bytes: [UInt8]) -> Bool {
            offset >= 0 && head.count >= offset + bytes.count && Array(head[offset..<offset + bytes.count]) == bytes
        }
        func ascii(_ text: String) -> [UInt8] { Array(text.utf8) }

        if at(0, [0xFF, 0xD8]) { return .jpeg }                                   // SOI (libjpeg judges the rest)
        if at(0, [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if at(0, ascii("RIFF")) && at(8, ascii("WEBP")) { return .webp }
        if at(0, ascii("GIF87a")) || at(0, ascii("GIF89a")) { return .gif }
        if at(4, ascii("ftyp")) { return isobmff(head) }
        if at(0, ascii("FUJIFILMCCD-RAW")) { return .raw }                        // RAF
        if at(0, ascii("IIRO")) || at(0, ascii("IIRS")) || at(0, ascii("MMOR")) { return .raw } // ORF
        if at(0, [0x49, 0x49, 0x55, 0x00]) { return .raw }                        // RW2 ("IIU")
        if at(0, [0x00, 0x4D, 0x52, 0x4D]) { return .raw }                        // MRW
        if at(0, ascii("FOVb")) { return .raw }                                   // X3F
        if (at(0, ascii("II")) || at(0, ascii("MM"))) && at(6, ascii("HEAPCCDR")) { return .raw } // CRW (CIFF)
        if phaseOne(head) { return .raw }                                         // IIQ
        if otherRAWSignatures.contains(where: { at($0.offset, $0.bytes) }) { return .raw }
        let classicTIFF = at(0, [0x49, 0x49, 0x2A, 0x00]) || at(0, [0x4D, 0x4D, 0x00, 0x2A])
        let bigTIFF = at(0, [0x49, 0x49, 0x2B, 0x00]) || at(0, [0x4D, 0x4D, 0x00, 0x2B])
        if classicTIFF || bigTIFF {
            if classicTIFF && at(8, ascii("CR")) { return .raw }                  // CR2
            if classicTIFF && TIFFRawMarks.found(in: head) { return .raw }
            return SourceFormat.raw.facts.extensions.contains(lowercasedExtension(fileName)) ? .raw : .tiff
        }
        return videoContainer(head, at: at)
    }

    /// A video container by its signature. After every photo's: no photo signature is one of these.
    private static func videoContainer(_ head: [UInt8], at: (Int, [UInt8]) -> Bool) -> SourceFormat? {
        func ascii(_ text: String) -> [UInt8] { Array(text.utf8) }
        // QuickTime from before ftyp: a movie starts with one of its top-level atoms.
        if ["moov", "mdat", "wide", "free", "skip", "pnot"].contains(where: { at(4, ascii($0)) }) { return .quickTime }
        if at(0, [0x1A, 0x45, 0xDF, 0xA3]) { return matroska(head) }               // EBML
        if at(0, ascii("RIFF")) && at(8, ascii("AVI ")) { return .avi }
        // MPEG-TS: a sync byte every 188 bytes; M2TS (AVCHD .mts/.m2ts): every 192, after a 4-byte time code.
        for (first, size) in [(0, 188), (4, 192)] where (0..<3).allSatisfy({ at(first + $0 * size, [0x47]) }) {
            return .mpegTransportStream
        }
        if at(0, [0x00, 0x00, 0x01, 0xBA]) || at(0, [0x00, 0x00, 0x01, 0xB3]) { return .mpegProgramStream }  // pack or sequence header
        return nil
    }

    /// Matroska, or WebM when the EBML header's DocType (element 0x4282) says "webm".
    private static func matroska(_ head: [UInt8]) -> SourceFormat {
        let webm = Array("webm".utf8)
        for i in 0..<max(0, min(head.count, 64) - 7) where head[i] == 0x42 && head[i + 1] == 0x82 && Array(head[(i + 3)..<(i + 7)]) == webm {
            return .webM
        }
        return .matroska
    }

    /// A Phase One raw block (IIQ and its older TIFFs) where LibRaw looks for one: "IIII" or
    /// "MMMM" in the first 32 bytes, followed by "Raw" as a 32-bit value in that byte order.
    private static func phaseOne(_ head: [UInt8]) -> Bool {
        let window = Array(head.prefix(32))
        for (marker, order) in [("IIII", ByteOrder.littleEndian), ("MMMM", .bigEndian)] {
            guard let start = window.firstRange(ofBytes: Array(marker.utf8))?.lowerBound, start + 8 <= head.count else { continue }
            if order.integer(head, at: start + 4, count: 4) >> 8 == 0x526177 { return true }
        }
        return false
    }

    /// The rarer containers LibRaw reads by a signature of their own.
    private static let otherRAWSignatures: [(offset: Int, bytes: [UInt8])] = [
        (25, Array("ARECOYK".utf8)),                            // Contax N Digital (Kyocera)
        (0, Array("DSC-Image".utf8)),                           // Rollei d530flex
        (0, Array("PWAD".utf8)),                                // Sinar IA
        (0, Array("NOKIARAW".utf8)),                            // Nokia
        (0, [0x00, 0x01, 0x00, 0x01, 0x00, 0x40]),              // Nokia (older)
        (0, Array("qktk\0".utf8)), (0, Array("qktn\0".utf8)),   // Apple QuickTake 100, 150
        (0, Array("PXN\0".utf8)),                               // Logitech Fotoman Pixtura
    ]

    private static let heifBrands: Set<String> = ["heic", "heix", "heim", "heis", "hevc", "hevx", "hevm", "hevs"]
    private static let avifBrands: Set<String> = ["avif", "avis"]
    private static let genericHEIFBrands: Set<String> = ["mif1", "msf1", "mif2", "miaf"]

    /// An ISO base media file: decided by the ftyp box's major brand, then its compatible brands;
    /// one no image brand claims is a video, of the kind its major brand says. Audio-only brands
    /// (M4A, M4B) count as MP4, so that a look at the tracks finds "audio only".
    private static func isobmff(_ head: [UInt8]) -> SourceFormat? {
        guard head.count >= 12 else { return nil }
        func brand(_ offset: Int) -> String { String(decoding: head[offset..<offset + 4], as: UTF8.self) }
        let major = brand(8)
        if major == "crx " { return .raw }                                         // CR3
        if avifBrands.contains(major) { return .avif }
        if heifBrands.contains(major) { return .heif }
        let boxSize = ByteOrder.bigEndian.integer(head, at: 0, count: 4)
        let end = min(head.count, boxSize)
        var compatible: [String] = []
        var offset = 16
        while offset + 4 <= end { compatible.append(brand(offset)); offset += 4 }
        if compatible.contains(where: avifBrands.contains) { return .avif }
        if compatible.contains(where: heifBrands.contains) { return .heif }
        if genericHEIFBrands.contains(major) || compatible.contains(where: genericHEIFBrands.contains) { return .heif }
        switch major {
        case "qt  ": return .quickTime
        case "M4V ", "M4VH", "M4VP": return .m4v
        case _ where major.hasPrefix("3g"): return .threeGPP
        default: return .mp4
        }
    }

    private static func lowercasedExtension(_ fileName: [UInt8]) -> String {
        guard let dot = fileName.lastIndex(of: UInt8(ascii: ".")) else { return "" }
        return String(decoding: fileName[(dot + 1)...].asciiLowercased, as: UTF8.self)
    }
}
