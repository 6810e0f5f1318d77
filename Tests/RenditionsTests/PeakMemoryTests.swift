import Foundation
import Testing

/// The streaming renderer holds the output plus a few rows, whatever the source's size: `assetfs render`
/// of a 108 MP baseline JPEG peaks within a few MiB of `assetfs --version`.
@Suite struct PeakMemoryTests {
    static let source = (width: 12000, height: 9000)
    static let allowance = 16 << 20

    /// The `assetfs` that `swift test` built: beside the test bundle, or in .build/debug.
    static func binary() -> String? {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("assetfs").path,
            TestData.packageRoot.appendingPathComponent(".build/debug/assetfs").path,
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Writes a 12000x9000 baseline JPEG by streaming a generated PPM through `cjpeg`, a row at a time
    /// (neither this process nor cjpeg ever holds the 324 MB image).
    static func makeLargeJPEG(at path: String) throws {
        let (width, height) = source
        let bands = 90
        let rows: [Data] = (0..<bands).map { band in
            var row = [UInt8](repeating: 0, count: width * 3)
            for x in 0..<width {
                row[x * 3] = UInt8(x * 255 / (width - 1))
                row[x * 3 + 1] = UInt8(band * 255 / (bands - 1))
                row[x * 3 + 2] = UInt8((x * 7 + band * 13) & 0xFF)
            }
            return Data(row)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["cjpeg", "-quality", "85", "-outfile", path]
        let input = Pipe()
        process.standardInput = input
        try process.run()
        let writer = input.fileHandleForWriting
        try writer.write(contentsOf: Data("P6\n\(width) \(height)\n255\n".utf8))
        for y in 0..<height { try writer.write(contentsOf: rows[y * bands / height]) }
        try writer.close()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    /// Peak RSS in bytes of `arguments` run under GNU time.
    static func peakRSS(_ arguments: [String]) throws -> Int {
        let output = try Tools.run(["/usr/bin/time", "-f", "maxrss_kb=%M"] + arguments)
        #expect(output.status == 0, "\(arguments): \(output.stderr)")
        let line = output.stderr.split(separator: "\n").last { $0.hasPrefix("maxrss_kb=") }
        let kilobytes = try #require(line.flatMap { Int($0.dropFirst("maxrss_kb=".count)) }, "no figure in: \(output.stderr)")
        return kilobytes * 1024
    }

    @Test func renderingA108MegapixelJPEGCostsNoMoreThanStartingUp() throws {
        let assetfs = try #require(Self.binary(), "assetfs binary not found beside \(CommandLine.arguments[0]) or in .build/debug")
        let directory = try Tools.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("large.jpg").path
        let output = directory.appendingPathComponent("thumb.jpg").path
        try Self.makeLargeJPEG(at: input)

        let idle = try Self.peakRSS([assetfs, "--version"])
        let render = try Self.peakRSS([assetfs, "render", "--size", "256", input, output])
        let extra = render - idle
        print("peak RSS: assetfs --version \(idle >> 10) KiB, render --size 256 of \(Self.source.width)x\(Self.source.height) \(render >> 10) KiB, difference \(fmt(Double(extra) / 1048576)) MiB")
        #expect(extra < Self.allowance)

        let thumb = try Tools.djpeg([UInt8](try #require(FileManager.default.contents(atPath: output))))
        #expect(thumb.width == 256 && thumb.height == 192)
    }
}
