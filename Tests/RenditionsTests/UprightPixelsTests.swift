import Foundation
import Testing
import Posix
@testable import Renditions

/// The renditions of the orientation sets are upright: they look like ImageMagick's
/// `-auto-orient -resize 128x128` of the same file, and unlike its mirror images.
///
/// Mean absolute error per sample (0-255) measured at 128 px (libjpeg-turbo 2.1.5, ImageMagick 6.9.11):
/// upright 4.43-4.47 (Landscape) and 2.85-2.88 (Portrait), which is JPEG q85 recompression: ImageMagick's
/// own reference saved at q85 is 4.36 from itself. Compared with the reference mirrored, flipped or turned
/// 180° the error is 37.9-84.3. Within a set, every rendition is 0.42-1.92 from the `_1` one (the digit
/// drawn on each photo). Hence the thresholds below: room for other libjpeg/ImageMagick versions, far
/// below what any wrong orientation gives.
@Suite struct UprightPixelsTests {
    static let uprightThreshold = 8.0
    static let sameSetThreshold = 4.0
    static let files = TestData.expectations(in: "orientation")
    static let box = 128

    static func rendition(_ file: String) throws -> PNM {
        let rendition = try Renderer().render(TestData.filePath(file), spec: RenditionSpec(longestSide: box, quality: 85))
        return try Tools.djpeg(rendition.jpeg)
    }

    @Test(arguments: files)
    func matchesImageMagickAutoOrient(_ row: Expectation) throws {
        let ours = try Self.rendition(row.file)
        let reference = try Tools.convert(row.path, ["-auto-orient", "-resize", "\(Self.box)x\(Self.box)"])
        let upright = try #require(ours.meanAbsoluteError(reference), "sizes differ: ours \(ours), ImageMagick \(reference)")
        let mirrored = try #require(ours.meanAbsoluteError(reference.mirrored))
        let flipped = try #require(ours.meanAbsoluteError(reference.flipped))
        let turned = try #require(ours.meanAbsoluteError(reference.turned))
        print("MAE \(row.file) vs ImageMagick: upright \(fmt(upright)), mirrored \(fmt(mirrored)), flipped \(fmt(flipped)), turned \(fmt(turned))")
        #expect(upright < Self.uprightThreshold)
        // The comparison can tell: every wrong way round is far over the threshold.
        #expect(mirrored > 2 * Self.uprightThreshold)
        #expect(flipped > 2 * Self.uprightThreshold)
        #expect(turned > 2 * Self.uprightThreshold)
    }

    @Test(arguments: files.filter { !$0.file.hasSuffix("_1.jpg") })
    func everyMemberOfASetLooksLikeItsReference(_ row: Expectation) throws {
        let referenceFile = row.file.hasPrefix("orientation/Landscape") ? "orientation/Landscape_1.jpg" : "orientation/Portrait_1.jpg"
        let ours = try Self.rendition(row.file)
        let reference = try Self.rendition(referenceFile)
        let mae = try #require(ours.meanAbsoluteError(reference), "sizes differ: \(ours) vs \(reference)")
        print("MAE \(row.file) vs \(referenceFile): \(fmt(mae)), vs its mirror image \(fmt(ours.meanAbsoluteError(reference.mirrored) ?? .nan))")
        #expect(mae < Self.sameSetThreshold)
        #expect(try #require(ours.meanAbsoluteError(reference.mirrored)) > 2 * Self.uprightThreshold)
    }
}

func fmt(_ value: Double) -> String { String(format: "%.2f", value) }
