/// The photo formats but camera RAW (`SourceFormat+RAW.swift`): each its facts and signatures.
extension SourceFormat {
    /// libjpeg judges what follows the SOI.
    public static let jpeg = SourceFormat("jpeg", facts: Facts(name: "JPEG", isVideo: false, mimeType: "image/jpeg", extensions: ["jpg", "jpeg", "jpe"]),
                                          signatures: [Signature(.distinct) { $0.at(0, [0xFF, 0xD8]) }], mayHoldMotion: true)

    /// HEIC and the HEIF of other codecs: claimed by a HEVC brand, major or compatible (after
    /// AVIF's), or by a generic HEIF brand (mif1, ...) when no format's own brand claims the file.
    public static let heif = SourceFormat("heif", facts: Facts(name: "HEIC/HEIF", isVideo: false, mimeType: "image/heic", extensions: ["heic", "heif", "hif"]),
                                          signatures: [.isoBrands(heifBrands, .isoMajorBrand), .isoBrands(heifBrands.union(genericHEIFBrands), .isoFamilyBrand)],
                                          mayHoldMotion: true)

    public static let avif = SourceFormat("avif", facts: Facts(name: "AVIF", isVideo: false, mimeType: "image/avif", extensions: ["avif"]),
                                          signatures: [.isoBrands(avifBrands, .isoMajorBrand), .isoBrands(avifBrands, .isoCompatibleBrand)])

    public static let png = SourceFormat("png", facts: Facts(name: "PNG", isVideo: false, mimeType: "image/png", extensions: ["png"]),
                                         signatures: [Signature(.distinct) { $0.at(0, [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) }])

    public static let webp = SourceFormat("webp", facts: Facts(name: "WebP", isVideo: false, mimeType: "image/webp", extensions: ["webp"]),
                                          signatures: [Signature(.distinct) { $0.at(0, "RIFF") && $0.at(8, "WEBP") }])

    public static let gif = SourceFormat("gif", facts: Facts(name: "GIF", isVideo: false, mimeType: "image/gif", extensions: ["gif"]),
                                         signatures: [Signature(.distinct) { $0.at(0, "GIF87a") || $0.at(0, "GIF89a") }])

    /// Classic TIFF and BigTIFF, when no camera RAW claimed the file.
    public static let tiff = SourceFormat("tiff", facts: Facts(name: "TIFF", isVideo: false, mimeType: "image/tiff", extensions: ["tiff", "tif"]),
                                          signatures: [Signature(.tiff) { $0.isClassicTIFF || $0.isBigTIFF }])

    private static let heifBrands: Set<String> = ["heic", "heix", "heim", "heis", "hevc", "hevx", "hevm", "hevs"]
    private static let avifBrands: Set<String> = ["avif", "avis"]
    private static let genericHEIFBrands: Set<String> = ["mif1", "msf1", "mif2", "miaf"]
}

extension SourceFormat.Signature.Head {
    public var isClassicTIFF: Bool { at(0, [0x49, 0x49, 0x2A, 0x00]) || at(0, [0x4D, 0x4D, 0x00, 0x2A]) }
    public var isBigTIFF: Bool { at(0, [0x49, 0x49, 0x2B, 0x00]) || at(0, [0x4D, 0x4D, 0x00, 0x2B]) }
}
