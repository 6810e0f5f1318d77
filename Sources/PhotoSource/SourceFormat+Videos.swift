/// The video containers FFmpeg opens: each its facts and signatures, tried after every photo's.
extension SourceFormat {
    /// QuickTime by its brand, or from before ftyp: a movie that starts with one of its top-level atoms.
    public static let quickTime = SourceFormat("mov", facts: Facts(name: "QuickTime", isVideo: true, mimeType: "video/quicktime", extensions: ["mov", "qt"]),
                                               signatures: [.isoBrands(["qt  "], .isoVideoBrand),
                                                            Signature(.video) { head in ["moov", "mdat", "wide", "free", "skip", "pnot"].contains { head.at(4, $0) } }],
                                               isISOMedia: true)

    /// Any ISO file no other brand claims; audio-only brands (M4A, M4B) too, so that a look at the
    /// tracks finds "audio only".
    public static let mp4 = SourceFormat("mp4", facts: Facts(name: "MP4", isVideo: true, mimeType: "video/mp4", extensions: ["mp4"]),
                                         signatures: [Signature(.isoAny) { $0.fileType != nil }], isISOMedia: true)

    public static let m4v = SourceFormat("m4v", facts: Facts(name: "M4V", isVideo: true, mimeType: "video/x-m4v", extensions: ["m4v"]),
                                         signatures: [.isoBrands(["M4V ", "M4VH", "M4VP"], .isoVideoBrand)], isISOMedia: true)

    public static let threeGPP = SourceFormat("3gp", facts: Facts(name: "3GP", isVideo: true, mimeType: "video/3gpp", extensions: ["3gp", "3g2"]),
                                              signatures: [Signature(.isoVideoBrand) { $0.fileType?.major.hasPrefix("3g") == true }], isISOMedia: true)

    public static let matroska = SourceFormat("mkv", facts: Facts(name: "Matroska", isVideo: true, mimeType: "video/x-matroska", extensions: ["mkv"]),
                                              signatures: [Signature(.video) { $0.at(0, [0x1A, 0x45, 0xDF, 0xA3]) && !$0.isWebMDocType }])

    public static let webM = SourceFormat("webm", facts: Facts(name: "WebM", isVideo: true, mimeType: "video/webm", extensions: ["webm"]),
                                          signatures: [Signature(.video) { $0.at(0, [0x1A, 0x45, 0xDF, 0xA3]) && $0.isWebMDocType }])

    public static let avi = SourceFormat("avi", facts: Facts(name: "AVI", isVideo: true, mimeType: "video/x-msvideo", extensions: ["avi"]),
                                         signatures: [Signature(.video) { $0.at(0, "RIFF") && $0.at(8, "AVI ") }])

    /// MPEG-TS: a sync byte every 188 bytes; M2TS (AVCHD .mts/.m2ts): every 192, after a 4-byte time code.
    public static let mpegTransportStream = SourceFormat("m2ts", facts: Facts(name: "MPEG transport stream", isVideo: true, mimeType: "video/mp2t", extensions: ["m2ts", "mts", "ts"]),
                                                         signatures: [Signature(.video) { head in
                                                             [(0, 188), (4, 192)].contains { first, size in (0..<3).allSatisfy { head.at(first + $0 * size, [0x47]) } }
                                                         }])

    /// A pack or sequence header.
    public static let mpegProgramStream = SourceFormat("mpg", facts: Facts(name: "MPEG program stream", isVideo: true, mimeType: "video/mpeg", extensions: ["mpg", "mpeg", "vob"]),
                                                       signatures: [Signature(.video) { $0.at(0, [0x00, 0x00, 0x01, 0xBA]) || $0.at(0, [0x00, 0x00, 0x01, 0xB3]) }])
}

extension SourceFormat.Signature.Head {
    /// Whether a Matroska file's EBML header says its DocType (element 0x4282) is "webm".
    var isWebMDocType: Bool {
        (0..<max(0, min(bytes.count, 64) - 7)).contains { i in bytes[i] == 0x42 && bytes[i + 1] == 0x82 && at(i + 3, "webm") }
    }
}
