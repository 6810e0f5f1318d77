import Containers
import Posix
import Renditions
import Testing

/// `Renderer.decodePixels`: the pixels desktop thumbnails are made of.
@Suite struct DecodePixelsTests {
    private func mean(_ image: DecodedImage) -> [Double] {
        (0..<image.channels).map { c in
            stride(from: c, to: image.pixels.count, by: image.channels).reduce(0.0) { $0 + Double(image.pixels[$1]) }
                / Double(image.size.width * image.size.height)
        }
    }

    @Test func fitsTheBoxUprightAndKeepsTheColours() throws {
        let renderer = Renderer()
        // Stored 1200x1800 with EXIF orientation 6: upright it is 1800x1200.
        let turned = try renderer.decodePixels(TestData.filePath("orientation/Landscape_6.jpg"), longestSide: 256)
        #expect(turned.size == PixelSize(width: 256, height: 171) && turned.channels == 3)
        #expect(turned.pixels.count == 256 * 171 * 3)

        let full = try renderer.decodePixels(TestData.filePath("cameras/Casio_EX-S1.jpg"), longestSide: 640)
        let small = try renderer.decodePixels(TestData.filePath("cameras/Casio_EX-S1.jpg"), longestSide: 128)
        #expect(full.size == PixelSize(width: 640, height: 480) && small.size == PixelSize(width: 128, height: 96))
        for (a, b) in zip(mean(full), mean(small)) { #expect(abs(a - b) < 2, "mean colour \(a) vs \(b)") }
    }

    @Test func greyStaysGreyAndNothingIsUpscaled() throws {
        let grey = try Renderer().decodePixels(TestData.filePath("malformed/grayscale.jpg"), longestSide: 128)
        #expect(grey.size == PixelSize(width: 32, height: 32) && grey.channels == 1)
    }

    @Test func notAJPEGIsAnError() {
        #expect(throws: RenditionError.self) { try Renderer().decodePixels(TestData.filePath("formats/basi6a08.png"), longestSide: 128) }
    }
}
