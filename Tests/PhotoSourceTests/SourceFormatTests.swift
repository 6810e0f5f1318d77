import Containers
import PhotoSource
import Testing

/// The format table: every format's row is whole, and a TIFF-signature file goes by its extension.
@Suite struct SourceFormatTests {
    /// A little-endian TIFF header with one empty IFD: no RAW marks of its own.
    let plainTIFF: [UInt8] = [0x49, 0x49, 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00]

    @Test func everyRowIsWhole() {
        var seen: Set<String> = []
        for format in SourceFormat.allCases {
            let facts = format.facts
            #expect(!facts.name.isEmpty && !facts.extensions.isEmpty, "\(format)")
            #expect(facts.mimeType.hasPrefix(facts.isVideo ? "video/" : "image/"), "\(format)")
            #expect(facts.extensions.allSatisfy { $0 == $0.lowercased() && !$0.contains(".") }, "\(format)")
            for name in facts.extensions { #expect(seen.insert(name).inserted, "\(name) belongs to two formats") }
        }
        #expect(SourceFormat.readableSummary == "JPEG, HEIC/HEIF, AVIF, PNG, WebP, GIF, TIFF, camera RAW or video")
    }

    /// Every RAW extension of the table, and only those, makes a TIFF-signature file a RAW.
    @Test func aTIFFSignatureFileIsARAWByItsExtension() {
        for ext in SourceFormat.raw.facts.extensions {
            #expect(SourceFormat.sniff(plainTIFF, fileName: Array("DSC_1.\(ext.uppercased())".utf8)) == .raw, "\(ext)")
        }
        for name in ["scan.tif", "scan.tiff", "scan", "scan.jpg"] {
            #expect(SourceFormat.sniff(plainTIFF, fileName: Array(name.utf8)) == .tiff, "\(name)")
        }
    }

    /// A TIFF whose IFD0 names itself as its next IFD and as its SubIFD, or claims more entries
    /// than the head holds, is read once and stays a TIFF (the walk ends; nothing marks it RAW).
    @Test func aTIFFsIFDLoopEnds() {
        let looping: [UInt8] = [0x49, 0x49, 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00, 0x01, 0x00,
                                0x4A, 0x01, 0x04, 0x00, 0x01, 0x00, 0x00, 0x00, 0x08, 0x00, 0x00, 0x00,
                                0x08, 0x00, 0x00, 0x00]
        #expect(SourceFormat.sniff(looping, fileName: Array("scan.tif".utf8)) == .tiff)
        let overlong = Array(plainTIFF[0..<8]) + [0xFF, 0xFF] + Array(repeating: 0, count: 64)
        #expect(SourceFormat.sniff(overlong, fileName: Array("scan.tif".utf8)) == .tiff)
    }

    /// The catalog stores each format's raw value: the registry keeps every stored name, and reads it back.
    @Test func storedNamesStay() {
        #expect(SourceFormat.allCases.map(\.rawValue) == ["jpeg", "heif", "avif", "png", "webp", "gif", "tiff", "raw", "mov", "mp4", "m4v",
                                                          "3gp", "mkv", "webm", "avi", "m2ts", "mpg"])
        for format in SourceFormat.allCases { #expect(SourceFormat(rawValue: format.rawValue) == format) }
        #expect(SourceFormat(rawValue: "jxl") == nil)
        #expect(SourceFormat.allCases.filter(\.mayHoldMotion) == [.jpeg, .heif])
        #expect(SourceFormat.allCases.filter(\.isISOMedia) == [.quickTime, .mp4, .m4v, .threeGPP])
    }

    /// An ISO file's ftyp box: `major` then `compatible` brands.
    func ftyp(_ major: String, _ compatible: [String]) -> [UInt8] {
        ByteOrder.bigEndian.bytes(of: 16 + 4 * compatible.count, count: 4) + Array("ftyp\(major)".utf8) + [0, 0, 0, 0]
            + compatible.flatMap { Array($0.utf8) } + Array(repeating: 0, count: 16)
    }

    /// Which format wins when several could claim a file: the ranks, then the registry's order.
    @Test(arguments: [
        ("crx ", ["heic", "avif"], "raw"),       // a major brand before any compatible one
        ("avif", ["heic"], "avif"),
        ("heic", ["avif"], "heif"),
        ("mp41", ["heic", "avif"], "avif"),      // AVIF's compatible brand before HEIF's
        ("mif1", ["avif"], "avif"),              // a format's own brand before HEIF's generic one
        ("mif1", ["mp41"], "heif"),
        ("isom", ["msf1"], "heif"),
        ("qt  ", ["heic"], "heif"),              // a photo's brand before a video's
        ("qt  ", ["isom"], "mov"),
        ("M4VH", [], "m4v"),
        ("3gp5", ["isom"], "3gp"),
        ("M4A ", ["isom"], "mp4"),               // any other ISO file
    ])
    func isoBrandsDecide(_ major: String, _ compatible: [String], _ expected: String) {
        #expect(SourceFormat.sniff(ftyp(major, compatible), fileName: []) == SourceFormat(rawValue: expected))
    }

    @Test func anISOFileIsDecidedByItsBrandsAlone() {
        // A RAW's signature before ftyp, and an ftyp box too short to name a brand.
        #expect(SourceFormat.sniff(Array("FOVb".utf8) + ftyp("isom", []).dropFirst(4), fileName: []) == .mp4)
        #expect(SourceFormat.sniff(Array("FOVbftyphe".utf8), fileName: []) == nil)
        #expect(SourceFormat.sniff([0xFF, 0xD8] + ftyp("heic", []).dropFirst(2), fileName: []) == .jpeg)
    }

    @Test func aPhotoSignatureBeatsAVideoOne() {
        // A GIF with MPEG-TS sync bytes at 188 and 376; a TIFF whose IFD offset spells a QuickTime atom.
        var gif = Array("GIF89a".utf8) + Array(repeating: 0, count: 400)
        gif[188] = 0x47; gif[376] = 0x47
        #expect(SourceFormat.sniff(gif, fileName: []) == .gif)
        #expect(SourceFormat.sniff(Array("MM\0*free".utf8) + Array(repeating: 0, count: 16), fileName: []) == .tiff)
        #expect(SourceFormat.sniff(Array("\0\0\0\u{10}free".utf8) + Array(repeating: 0, count: 16), fileName: []) == .quickTime)
    }
}

