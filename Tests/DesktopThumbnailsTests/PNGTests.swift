import DesktopThumbnails
import Foundation
import Testing

@Suite struct PNGTests {
    /// Well-known CRC-32 values: the check value of "123456789", and every PNG's IEND chunk CRC.
    @Test func crc32() {
        #expect(PNG.crc32(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(PNG.crc32(Array("IEND".utf8)) == 0xAE42_6082)
    }

    private let text: [(keyword: String, value: String)] = [
        ("Thumb::URI", "file:///tmp/a%20b/c.jpg"), ("Thumb::MTime", "1700000000"), ("Thumb::Size", "12345"),
    ]

    /// The chunks as they lie in the file: type and CRC-checked data, in order.
    private func chunks(_ png: [UInt8]) -> [(type: String, data: [UInt8])] {
        var result: [(String, [UInt8])] = [], offset = 8
        while offset + 12 <= png.count {
            let length = png[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            let typeAndData = Array(png[(offset + 4)..<(offset + 8 + length)])
            let crc = png[(offset + 8 + length)..<(offset + 12 + length)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            #expect(crc == PNG.crc32(typeAndData), "CRC of chunk at \(offset)")
            result.append((String(decoding: typeAndData[0..<4], as: UTF8.self), Array(typeAndData[4...])))
            offset += 12 + length
        }
        #expect(offset == png.count, "bytes after the last chunk")
        return result
    }

    @Test func textChunksFollowTheHeader() throws {
        let pixels = (0..<(3 * 2 * 3)).map { UInt8($0 * 10) }
        let png = try PNG.encode(pixels: pixels, width: 3, height: 2, channels: 3, text: text)
        #expect(Array(png[0..<8]) == PNG.signature)
        let found = chunks(png)
        #expect(found.first?.type == "IHDR")
        #expect(found.last?.type == "IEND")
        // IHDR: width 3, height 2, bit depth 8, colour type 2 (RGB), no interlace.
        #expect(found.first?.data == [0, 0, 0, 3, 0, 0, 0, 2, 8, 2, 0, 0, 0])
        let texts = found.filter { $0.type == "tEXt" }
        #expect(texts.map(\.data) == text.map { Array($0.keyword.utf8) + [0] + Array($0.value.utf8) })
        // All of them before the image data.
        let firstData = try #require(found.firstIndex { $0.type == "IDAT" })
        #expect(found.indices.filter { found[$0].type == "tEXt" }.allSatisfy { $0 < firstData })
        #expect(PNG.textChunks(in: png) == Dictionary(uniqueKeysWithValues: text.map { ($0.keyword, $0.value) }))
    }

    @Test func greyImages() throws {
        let png = try PNG.encode(pixels: [0, 128, 255, 64], width: 2, height: 2, channels: 1, text: [("Thumb::MTime", "1")])
        #expect(chunks(png).first?.data == [0, 0, 0, 2, 0, 0, 0, 2, 8, 0, 0, 0, 0])
        #expect(PNG.textChunks(in: png) == ["Thumb::MTime": "1"])
    }

    @Test func damageIsNoValidPNG() throws {
        var png = try PNG.encode(pixels: [1, 2, 3], width: 1, height: 1, channels: 3, text: text)
        #expect(PNG.textChunks(in: Array(png.dropLast(12))) == nil, "without IEND")
        #expect(PNG.textChunks(in: Array(png.dropFirst())) == nil, "no signature")
        png[40] ^= 0x01  // inside the first tEXt chunk
        #expect(PNG.textChunks(in: png) == nil, "a wrong CRC")
    }

    @Test func badInputIsRefused() {
        #expect(throws: PNG.EncodingError.self) { try PNG.encode(pixels: [1, 2], width: 1, height: 1, channels: 3) }
        #expect(throws: PNG.EncodingError.self) { try PNG.encode(pixels: [1, 2, 3], width: 1, height: 1, channels: 3, text: [("", "x")]) }
        #expect(throws: PNG.EncodingError.self) { try PNG.encode(pixels: [1, 2, 3], width: 1, height: 1, channels: 3, text: [("k", "a\u{0}b")]) }
    }

    /// Another decoder reads what we write: ImageMagick, pixels and text keys.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/convert"), "ImageMagick is not installed"))
    func imageMagickReadsIt() throws {
        let pixels: [UInt8] = [255, 0, 0, 0, 255, 0, 0, 0, 255, 10, 20, 30]
        let png = try PNG.encode(pixels: pixels, width: 2, height: 2, channels: 3, text: text)
        let path = NSTemporaryDirectory() + "/desktop-thumbnails-\(getpid()).png"
        try Data(png).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/convert")
        process.arguments = [path, "-format", "%w %h %[Thumb::URI] %[Thumb::MTime] %[Thumb::Size]\\n", "-write", "info:-", "rgb:-"]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let newline = try #require(data.firstIndex(of: 0x0A))
        #expect(String(decoding: data[..<newline], as: UTF8.self) == "2 2 file:///tmp/a%20b/c.jpg 1700000000 12345")
        #expect(Array(data[(newline + 1)...]) == pixels)
    }
}
