import Containers
import Testing
import Posix
@testable import Renditions

@Suite struct OrientationTests {
    /// A stored 3x2 image whose pixels are named
    ///     a b c
    ///     d e f
    /// and, for each EXIF orientation, the upright picture a viewer shows (rows top to bottom),
    /// worked out from the EXIF 2.3 definitions of "0th row" and "0th column".
    static let stored = ["abc", "def"]
    static let upright: [Orientation: [String]] = [
        .up: ["abc", "def"],                 // 1
        .upMirrored: ["cba", "fed"],         // 2: mirror left-right
        .down: ["fed", "cba"],               // 3: rotate 180
        .downMirrored: ["def", "abc"],       // 4: mirror top-bottom
        .leftMirrored: ["ad", "be", "cf"],   // 5: transpose
        .right: ["da", "eb", "fc"],          // 6: rotate 90 CW
        .rightMirrored: ["fc", "eb", "da"],  // 7: transverse
        .left: ["cf", "be", "ad"],           // 8: rotate 90 CCW
    ]

    @Test(arguments: Orientation.allCases)
    func sourcePointBuildsTheUprightPicture(_ orientation: Orientation) throws {
        let expected = try #require(Self.upright[orientation])
        let storedSize = PixelSize(width: 3, height: 2)
        let uprightSize = orientation.swapsAxes ? storedSize.transposed : storedSize
        let pixels = Self.stored.map(Array.init)
        var rows: [String] = []
        for y in 0..<uprightSize.height {
            var row = ""
            for x in 0..<uprightSize.width {
                let p = orientation.sourcePoint(x: x, y: y, stored: storedSize)
                try #require((0..<3).contains(p.x) && (0..<2).contains(p.y), "(\(x),\(y)) maps outside: \(p)")
                row.append(pixels[p.y][p.x])
            }
            rows.append(row)
        }
        #expect(rows == expected, "orientation \(orientation.rawValue)")
    }

    @Test func exifValuesOutsideOneToEightMeanUp() {
        #expect(Orientation(exifValue: 0) == .up)
        #expect(Orientation(exifValue: 9) == .up)
        #expect(Orientation(exifValue: -1) == .up)
        #expect(Orientation(exifValue: 65535) == .up)
        for value in 1...8 { #expect(Orientation(exifValue: value).rawValue == value) }
    }

    @Test func onlyFiveToEightSwapAxes() {
        #expect(Orientation.allCases.filter(\.swapsAxes).map(\.rawValue) == [5, 6, 7, 8])
    }

    /// The tag is read from the files themselves (libexif), including the invalid 0 and broken EXIF blocks.
    @Test(arguments: TestData.expectations(in: "orientation", "cameras"))
    func readsTheTagOfTestFiles(_ row: Expectation) throws {
        let file = try OwnedFileDescriptor.openReadOnly(FilePath(row.path))
        #expect(Orientation.read(from: file.descriptor) == Orientation(exifValue: row.orientation ?? 1))
    }
}
