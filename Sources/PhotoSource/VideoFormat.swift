/// The video containers assetfs recognises, from a file's first bytes, never from its name. A
/// separate type from `SourceFormat` so that every switch over the photo formats stays as it is;
/// a file is looked at as a video only when it is not a photo (a HEIC Motion Photo is a photo
/// whatever it holds). Recognised means "may hold video": whether it does (and is not audio
/// only) is known once the container is opened. Pure: no I/O.
public enum VideoFormat: String, Sendable, CaseIterable {
    case quickTime, mp4, m4v, threeGPP, matroska, webM, avi, mpegTransportStream, mpegProgramStream

    /// How many leading bytes `sniff` looks at: three MPEG-TS packets and then some.
    public static let headLength = 512

    /// The container whose signature `head` (the file's first bytes, up to `headLength`) carries,
    /// or nil, also for every file `SourceFormat` takes as a photo.
    public static func sniff(_ head: [UInt8], fileName: [UInt8]) -> VideoFormat? {
        guard SourceFormat.sniff(Array(head.prefix(SourceFormat.headLength)), fileName: fileName) == nil else { return nil }
        func at(_ offset: Int, _ bytes: [UInt8]) -> Bool {
            head.count >= offset + bytes.count && Array(head[offset..<offset + bytes.count]) == bytes
        }
        func ascii(_ text: String) -> [UInt8] { Array(text.utf8) }

        if at(4, ascii("ftyp")) { return isobmff(head) }
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

    public var mimeType: String {
        switch self {
        case .quickTime: "video/quicktime"
        case .mp4: "video/mp4"
        case .m4v: "video/x-m4v"
        case .threeGPP: "video/3gpp"
        case .matroska: "video/x-matroska"
        case .webM: "video/webm"
        case .avi: "video/x-msvideo"
        case .mpegTransportStream: "video/mp2t"
        case .mpegProgramStream: "video/mpeg"
        }
    }

    /// The extension a file of this container usually has (an original keeps its own).
    public var usualExtension: String {
        switch self {
        case .quickTime: "mov"
        case .mp4: "mp4"
        case .m4v: "m4v"
        case .threeGPP: "3gp"
        case .matroska: "mkv"
        case .webM: "webm"
        case .avi: "avi"
        case .mpegTransportStream: "m2ts"
        case .mpegProgramStream: "mpg"
        }
    }

    /// An ISO base media file that is not a photo: its major brand says which kind. Audio-only
    /// brands (M4A, M4B) count as MP4, so that opening them finds "audio only".
    private static func isobmff(_ head: [UInt8]) -> VideoFormat? {
        guard head.count >= 12 else { return nil }
        let major = String(decoding: head[8..<12], as: UTF8.self)
        switch major {
        case "qt  ": return .quickTime
        case "M4V ", "M4VH", "M4VP": return .m4v
        case _ where major.hasPrefix("3g"): return .threeGPP
        default: return .mp4
        }
    }

    /// Matroska, or WebM when the EBML header's DocType (element 0x4282) says "webm".
    private static func matroska(_ head: [UInt8]) -> VideoFormat {
        let webm = Array("webm".utf8)
        for i in 0..<max(0, min(head.count, 64) - 7) where head[i] == 0x42 && head[i + 1] == 0x82 && Array(head[(i + 3)..<(i + 7)]) == webm {
            return .webM
        }
        return .matroska
    }
}
