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
}
