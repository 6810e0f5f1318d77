import Containers
import Testing
import PhotoSource

/// Every RAW container LibRaw reads is recognised by its content, whatever the file is called
/// (issue 18, item 3); plain TIFFs stay TIFFs.
@Suite struct RAWRecognitionTests {
    static func sniff(_ head: [UInt8], as name: String = "photo.bin") -> SourceFormat? {
        SourceFormat.sniff(Array(head.prefix(SourceFormat.headLength)), fileName: Array(name.utf8))
    }

    /// The RAW fixtures (NEF, ARW and DNG have TIFF's own signature) under a name that says nothing.
    @Test(arguments: TestData.expectations(in: "raw").map(\.file))
    func rawFixturesAreRAWByContent(_ file: String) {
        #expect(Self.sniff(TestData.prefix(file, count: SourceFormat.headLength)) == .raw)
    }

    @Test(arguments: TestData.expectations(in: "formats").map(\.file).filter { $0.hasSuffix(".tif") || $0.hasSuffix(".tiff") })
    func plainTIFFsStayTIFF(_ file: String) {
        #expect(Self.sniff(TestData.prefix(file, count: SourceFormat.headLength), as: "scan.tif") == .tiff)
    }

    static func padded(_ bytes: [UInt8]) -> [UInt8] { bytes + [UInt8](repeating: 0, count: 64) }

    @Test func signaturesOfTheOtherContainers() {
        let heads: [(String, [UInt8])] = [
            ("CRW", Array("II".utf8) + [26, 0, 0, 0] + Array("HEAPCCDR".utf8)),
            ("MRW", [0x00, 0x4D, 0x52, 0x4D]),
            ("X3F", Array("FOVb".utf8)),
            ("IIQ", Array("IIII".utf8) + [0x00] + Array("waR".utf8)),
            ("Phase One, big-endian", Array("MMMM".utf8) + Array("Raw".utf8) + [0]),
            ("Contax N Digital", [UInt8](repeating: 0, count: 25) + Array("ARECOYK".utf8)),
            ("Sinar IA", Array("PWAD".utf8)),
            ("Nokia", Array("NOKIARAW".utf8)),
        ]
        for (name, head) in heads { #expect(Self.sniff(Self.padded(head)) == .raw, "\(name)") }
        // Near misses stay unknown.
        #expect(Self.sniff(Self.padded(Array("IIII".utf8) + Array("text".utf8))) == nil)
        #expect(Self.sniff(Self.padded(Array("II".utf8) + [26, 0, 0, 0] + Array("HEAPXXXX".utf8))) == nil)
    }

    /// A TIFF whose IFD0 holds sensor data (photometric CFA), as a PEF, ERF, 3FR, MEF or DCR does.
    @Test func aTIFFOfSensorDataIsRAW() {
        func tiff(photometric: Int) -> [UInt8] {
            let entry: [UInt8] = [0x06, 0x01, 0x03, 0x00, 0x01, 0x00, 0x00, 0x00] + ByteOrder.littleEndian.bytes(of: photometric, count: 4)
            return Array("II".utf8) + [0x2A, 0x00, 0x08, 0x00, 0x00, 0x00] + [0x01, 0x00] + entry + [0, 0, 0, 0]
        }
        #expect(Self.sniff(Self.padded(tiff(photometric: 32803)), as: "IMGP0001.tif") == .raw)
        #expect(Self.sniff(Self.padded(tiff(photometric: 2)), as: "IMGP0001.tif") == .tiff)
        #expect(Self.sniff(Self.padded(tiff(photometric: 2)), as: "IMGP0001.PEF") == .raw)
    }
}
