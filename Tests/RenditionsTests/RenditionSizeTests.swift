import Containers
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

    /// The vendored fixtures are all there (a missing or empty Tests/Fixtures would otherwise turn the
    /// parameterised tests into tests of nothing). Counts as in Tests/Fixtures/PROVENANCE.md: the
    /// shared set minus the two camera files whose licence does not allow copying.
    @Test func everyFixtureFolderIsListed() throws {
        #expect(TestData.expectations(in: "orientation").count == 18)
        #expect(TestData.expectations(in: "cameras").count == 21)
        #expect(TestData.expectations(in: "malformed").count == 21)
        #expect(TestData.expectations(in: "formats").count == 36)
        #expect(TestData.expectations(in: "raw").count == 7)
        #expect(TestData.expectations(in: "video").count == 15)
        #expect(TestData.expectations(in: "motion").count == 4)
        #expect(TestData.expectations.count == 18 + 21 + 21 + 36 + 7 + 15 + 4)
        for row in TestData.expectations {
            #expect(TestData.bytes(row.file) != nil, "\(row.file) is listed in expectations.csv but missing from Tests/Fixtures")
        }
    }
}
