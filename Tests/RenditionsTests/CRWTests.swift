import Containers
import Foundation
import Testing
import Posix
import PhotoSource
@testable import Renditions

/// Canon CRW (CIFF) files, made here: no CRW in the shared test data. Issue 18, item 3: CRWs were
/// skipped as "not a photo"; one whose sensor data is gone shows its thumbnail record.
@Suite struct CRWTests {
    /// A CIFF heap: the records' data one after another, then the record table (a 16-bit count,
    /// 10-byte records: type, length, offset), then the table's offset. Little-endian.
    static func heap(_ records: [(type: Int, data: [UInt8])]) -> [UInt8] {
        var data: [UInt8] = [], table = ByteOrder.littleEndian.bytes(of: records.count, count: 2)
        for record in records {
            table += ByteOrder.littleEndian.bytes(of: record.type, count: 2) + ByteOrder.littleEndian.bytes(of: record.data.count, count: 4)
                + ByteOrder.littleEndian.bytes(of: data.count, count: 4)
            data += record.data
        }
        return data + table + ByteOrder.littleEndian.bytes(of: data.count, count: 4)
    }

    /// "II", the header's length (26), "HEAPCCDR", version 1.2, 8 reserved bytes, then the root heap.
    static func crw(_ records: [(type: Int, data: [UInt8])]) -> [UInt8] {
        Array("II".utf8) + [26, 0, 0, 0] + Array("HEAPCCDR".utf8) + [2, 0, 1, 0] + [UInt8](repeating: 0, count: 8) + heap(records)
    }

    /// Image info (0x1810): width, height, pixel aspect, rotation in degrees, 4 bytes each.
    static func imageInfo(rotation: Int) -> (type: Int, data: [UInt8]) {
        (0x1810, [3072, 2048, 0x3F80_0000, rotation].flatMap { ByteOrder.littleEndian.bytes(of: $0, count: 4) } + [UInt8](repeating: 0, count: 12))
    }

    /// Make and model (0x080a) in a heap of image properties (0x300a), where cameras put them.
    static let makeModel: (type: Int, data: [UInt8]) = (0x300a, heap([(0x080a, Array("Canon\0Canon EOS 300D DIGITAL\0".utf8))]))

    /// A 160x120 JPEG with a red block in its top-left corner (so a wrong turn shows).
    static func thumbnail() throws -> [UInt8] {
        let output = try Tools.run(["convert", "-size", "160x120", "xc:#4080c0", "-fill", "#e02020", "-draw", "rectangle 0,0 59,39",
                                    "-quality", "95", "jpg:-"])
        guard output.status == 0 else { throw PNM.Failure.tool("convert exit \(output.status): \(output.stderr)") }
        return output.stdout
    }

    static func render(_ bytes: [UInt8], name: String = "IMG_0001.CRW") throws -> Result<Rendition, RenditionError> {
        let folder = try Tools.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent(name).path
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        return Result { () throws(RenditionError) in try Renderer().render(FilePath(path), spec: RenditionSpec(longestSide: 256)) }
    }

    @Test func aCRWIsRecognisedByContentWhateverItsName() throws {
        let bytes = Self.crw([Self.imageInfo(rotation: 0), (0x2008, try Self.thumbnail())])
        for name in ["IMG_0001.CRW", "IMG_0001.bin", "IMG_0001"] {
            #expect(SourceFormat.sniff(Array(bytes.prefix(SourceFormat.headLength)), fileName: Array(name.utf8)) == .raw, "\(name)")
        }
    }

    @Test(arguments: [(0, false), (90, true), (270, true)])
    func aCRWWithoutSensorDataShowsItsThumbnailRecordUpright(rotation: Int, withCamera: Bool) throws {
        let jpeg = try Self.thumbnail()
        var records = [Self.imageInfo(rotation: rotation), (0x2008, jpeg)]
        if withCamera { records.append(Self.makeModel) }
        let rendition = try Self.render(Self.crw(records), name: "IMG_0001.bin").get()
        let ours = try Tools.djpeg(rendition.jpeg)
        var reference = try Tools.djpeg(jpeg)
        // 90 (clockwise, as LibRaw reads it) and 270 turn the picture a quarter each way.
        if rotation == 90 { reference = reference.turnedClockwise }
        if rotation == 270 { reference = reference.turnedAnticlockwise }
        #expect(rendition.size == PixelSize(width: reference.width, height: reference.height))
        let error = try #require(ours.meanAbsoluteError(reference))
        print("CRW thumbnail record, rotation \(rotation): MAE \(fmt(error))")
        #expect(error < 3)
    }

    @Test func aCRWWithNothingToShowIsBrokenNotSkipped() throws {
        let result = try Self.render(Self.crw([Self.imageInfo(rotation: 0), Self.makeModel]))
        guard case .failure(let error) = result else { Issue.record("rendered a CRW without any picture"); return }
        #expect(error.kind != .unrecognised, "\(error)")
    }
}
