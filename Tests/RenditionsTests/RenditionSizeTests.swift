import Testing
import Posix
@testable import Renditions

/// Every well-formed photo, at every box size, comes out at the box fit of its *upright* size,
/// and the JPEG written really has that size.
@Suite struct RenditionSizeTests {
    static let boxes = [16, 100, 256, 1000, 5000] // 5000 is larger than every source: output at its own upright size

    @Test(arguments: TestData.expectations(in: "orientation", "cameras"), boxes)
    func sizeIsTheUprightBoxFit(_ row: Expectation, box: Int) throws {
        let upright = try #require(row.upright)
        let expected = upright.fitted(longestSide: box)
        let rendition = try Renderer().render(FilePath(row.path), spec: RenditionSpec(longestSide: box, quality: 85))
        #expect(rendition.size == expected)
        #expect(max(expected.width, expected.height) == min(box, max(upright.width, upright.height)))
        let decoded = try Tools.djpeg(rendition.jpeg)
        #expect(PixelSize(width: decoded.width, height: decoded.height) == expected)
        #expect(decoded.channels == 3)
    }

    @Test func everyOrientationAndCameraFileIsListed() {
        #expect(TestData.expectations(in: "orientation").count == 18)
        #expect(TestData.expectations(in: "cameras").count == 23)
        #expect(TestData.expectations(in: "malformed").count == 21)
        #expect(TestData.expectations(in: "formats").count == 8)
    }
}
