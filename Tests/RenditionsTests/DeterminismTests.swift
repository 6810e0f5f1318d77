import Testing
import Posix
@testable import Renditions

/// Same input, same bytes; no metadata carried over that would make viewers turn the picture again.
@Suite struct DeterminismTests {
    static let files = TestData.expectations(in: "orientation", "cameras")
        + ["malformed/cmyk_adobe.jpg", "malformed/grayscale.jpg", "malformed/progressive_small.jpg",
           "malformed/arithmetic_coded.jpg", "malformed/restarts.jpg"].compactMap(TestData.expectation)

    static func render(_ row: Expectation, box: Int = 256) throws -> Rendition {
        try Renderer().render(FilePath(row.path), spec: RenditionSpec(longestSide: box, quality: 85))
    }

    @Test(arguments: files)
    func sameFileGivesTheSameBytes(_ row: Expectation) throws {
        let first = try Self.render(row)
        let second = try Self.render(row)
        #expect(first.jpeg == second.jpeg)
        #expect(first.size == second.size)
    }

    @Test(arguments: files)
    func renditionCarriesNoExif(_ row: Expectation) throws {
        let segments = try JPEGSegments.markers(of: try Self.render(row).jpeg)
        let exif = segments.filter { $0.marker == 0xE1 && $0.payload.starts(with: Array("Exif\0\0".utf8)) }
        #expect(exif.isEmpty, "\(row.file): rendition has an EXIF APP1 segment")
        #expect(segments.first?.marker == 0xE0, "JFIF APP0 first") // what libjpeg writes for gray and YCbCr
    }

    @Test(arguments: ["cameras/canon_hdr_NO.jpg", "cameras/Samsung_GT-I9000_Galaxy_S.jpg", "orientation/Landscape_6.jpg", "orientation/Portrait_6.jpg"])
    func orientationSixComesOutTurned(_ file: String) throws {
        let row = try #require(TestData.expectation(file))
        #expect(row.orientation == 6)
        let stored = PixelSize(width: try #require(row.width), height: try #require(row.height))
        let rendition = try Self.render(row)
        #expect(rendition.size == stored.transposed.fitted(longestSide: 256))
        let decoded = try Tools.djpeg(rendition.jpeg)
        #expect(PixelSize(width: decoded.width, height: decoded.height) == stored.transposed.fitted(longestSide: 256))
    }

    @Test func canonOrientationSixIsPortrait() throws {
        let rendition = try Self.render(try #require(TestData.expectation("cameras/canon_hdr_NO.jpg")))
        #expect(rendition.size == PixelSize(width: 192, height: 256)) // stored 2048x1536
    }
}
