@testable import AssetFSCLI
import Containers
import PhotoSource
import Posix
@testable import Renditions
import Testing

/// What adding a format takes (issue 30): its registry entry and its decoder, in one place, and
/// nothing else edited: it is sniffed, listed by `assetfs formats` and rendered.
@Suite struct AddedFormatTests {
    /// A test-only format, binary Netpbm: "P6 <width> <height> 255" and a space, then RGB bytes.
    static let netpbm = SourceFormat("ppm", facts: SourceFormat.Facts(name: "Netpbm", isVideo: false, mimeType: "image/x-portable-pixmap", extensions: ["ppm"]),
                                     signatures: [SourceFormat.Signature(.distinct) { $0.at(0, "P6 ") }])

    static let decoder = PhotoDecoder { (renderer, file, spec, name) throws(RenditionError) in
        let rows = try NetpbmRows(file, name: name)
        return try renderer.finish(rows, target: rows.size.fitted(longestSide: spec.longestSide), reduce: true, orientation: .up,
                                   colour: nil, spec: spec, name: name)
    }

    /// The rows of a P6 file read whole (a test's small one).
    final class NetpbmRows: RowSource {
        let size: PixelSize
        let layout = PixelLayout.rgb
        private let pixels: [UInt8]
        private var next = 0

        init(_ file: FileDescriptor, name: String) throws(RenditionError) {
            guard let bytes = try? file.read(upTo: 1 << 20, at: 0) else { throw RenditionError(.unreadable, path: name, reason: "read") }
            let fields = bytes.split(separator: UInt8(ascii: " "), maxSplits: 4, omittingEmptySubsequences: false)
            guard fields.count == 5, let width = Int(String(decoding: fields[1], as: UTF8.self)),
                  let height = Int(String(decoding: fields[2], as: UTF8.self)), fields[4].count == width * height * 3 else {
                throw RenditionError(.corrupt, path: name, reason: "not a P6 file of this test's kind")
            }
            (size, pixels) = (PixelSize(width: width, height: height), Array(fields[4]))
        }

        func readRows(into rows: UnsafeMutablePointer<UInt8>, count: Int) throws(RenditionError) -> Int {
            let rowBytes = size.width * 3, taken = min(count, size.height - next)
            pixels.withUnsafeBufferPointer { rows.update(from: $0.baseAddress! + next * rowBytes, count: taken * rowBytes) }
            next += taken
            return taken
        }
    }

    /// 64 by 32 pixels of one colour.
    let photo = Array("P6 64 32 255 ".utf8) + Array(repeating: [200, 100, 50] as [UInt8], count: 64 * 32).joined()

    @Test func aFormatIsItsEntryAndItsDecoder() throws {
        let formats = SourceFormat.allCases + [Self.netpbm]
        #expect(SourceFormat.sniff(photo, fileName: Array("scan.ppm".utf8)) == nil)
        #expect(SourceFormat.sniff(photo, fileName: Array("scan".utf8), among: formats) == Self.netpbm)

        let listed = FormatsCommand.text(of: formats).split(separator: "\n")
        #expect(listed.contains { $0.hasPrefix("  photo Netpbm ") && $0.contains(" image/x-portable-pixmap ") && $0.hasSuffix(" .ppm") },
                "\(listed)")
        #expect(FormatsCommand.text(of: SourceFormat.allCases) == FormatsCommand.text)

        let file = try OwnedFileDescriptor.memoryFile(holding: photo)
        #expect(throws: RenditionError.self) { try Renderer().render(file.descriptor, spec: RenditionSpec(longestSide: 32), name: "scan") }
        let rendition = try Renderer().adding(Self.netpbm, decoder: Self.decoder)
            .render(file.descriptor, spec: RenditionSpec(longestSide: 32), name: "scan")
        #expect(rendition.size == PixelSize(width: 32, height: 16))
        let jpeg = try OwnedFileDescriptor.memoryFile(holding: rendition.jpeg)
        let decoded = try JPEGDecoder(file: jpeg.descriptor, path: "rendition")
        #expect(try decoded.readHeader().size == PixelSize(width: 32, height: 16))
        try decoded.start(shrink: 1, memoryLimit: 64 << 20)
        var row = [UInt8](repeating: 0, count: 32 * 3)
        #expect(try row.withUnsafeMutableBufferPointer { try decoded.readRows(into: $0.baseAddress!, count: 1) } == 1)
        for (channel, expected) in [200, 100, 50].enumerated() {
            #expect(abs(Int(row[16 * 3 + channel]) - expected) <= 4, "channel \(channel): \(row[16 * 3 + channel])")
        }
    }
}
