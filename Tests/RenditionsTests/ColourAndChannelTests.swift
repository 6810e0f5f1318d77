import Containers
import Testing
import Posix
@testable import Renditions

/// CMYK becomes RGB, gray stays gray, and tiny or extreme sources keep at least one pixel.
@Suite struct ColourAndChannelTests {
    static func rendition(_ file: String, box: Int = 256) throws -> (Rendition, PNM) {
        let rendition = try Renderer().render(TestData.filePath(file), spec: RenditionSpec(longestSide: box, quality: 85))
        return (rendition, try Tools.djpeg(rendition.jpeg))
    }

    @Test func adobeCMYKBecomesPlausibleRGB() throws {
        let (rendition, ours) = try Self.rendition("malformed/cmyk_adobe.jpg")
        #expect(rendition.size == PixelSize(width: 32, height: 32))
        #expect(ours.channels == 3)
        let reference = try Tools.convert(TestData.path("malformed/cmyk_adobe.jpg"), ["-colorspace", "sRGB"])
        let mae = try #require(ours.meanAbsoluteError(reference), "ours \(ours), ImageMagick \(reference)")
        let negative = PNM(width: reference.width, height: reference.height, channels: 3, samples: reference.samples.map { 255 - $0 })
        let wrong = try #require(ours.meanAbsoluteError(negative))
        print("MAE cmyk_adobe.jpg vs ImageMagick -colorspace sRGB: \(fmt(mae)); vs its negative \(fmt(wrong))")
        #expect(mae < 8)
        #expect(wrong > 16)
    }

    @Test(arguments: [("malformed/grayscale.jpg", PixelSize(width: 32, height: 32)),
                      ("malformed/grayscale_long_1x1000.jpg", PixelSize(width: 1, height: 256))])
    func grayStaysOneChannel(_ file: String, expected: PixelSize) throws {
        let (rendition, ours) = try Self.rendition(file)
        #expect(rendition.size == expected)
        #expect(ours.channels == 1) // djpeg wrote P5
        #expect(PixelSize(width: ours.width, height: ours.height) == expected)
    }

    @Test func grayPixelsSurviveUnscaled() throws {
        // 32x32 in a 256 box is not resampled: only JPEG recompression separates it from its source.
        let (_, ours) = try Self.rendition("malformed/grayscale.jpg")
        let source = try Tools.djpeg(Array(try #require(TestData.bytes("malformed/grayscale.jpg"))))
        let mae = try #require(ours.meanAbsoluteError(source))
        print("MAE grayscale.jpg vs its source: \(fmt(mae))")
        #expect(mae < 8)
    }

    @Test(arguments: [("malformed/size_1x1.jpg", 256, PixelSize(width: 1, height: 1)),
                      ("cameras/Apple_iPhone_XR_1x1.jpg", 256, PixelSize(width: 1, height: 1)),
                      ("malformed/size_1x1.jpg", 1, PixelSize(width: 1, height: 1)),
                      ("malformed/grayscale_long_1x1000.jpg", 256, PixelSize(width: 1, height: 256)),
                      ("malformed/grayscale_long_1x1000.jpg", 16, PixelSize(width: 1, height: 16)),
                      ("malformed/grayscale_long_1x1000.jpg", 1, PixelSize(width: 1, height: 1))])
    func tinyAndExtremeSourcesKeepAPixel(_ file: String, box: Int, expected: PixelSize) throws {
        let (rendition, decoded) = try Self.rendition(file, box: box)
        #expect(rendition.size == expected)
        #expect(PixelSize(width: decoded.width, height: decoded.height) == expected)
    }

    /// sRGB profiles (HP's IEC61966-2.1 as cameras embed it, lcms2's own) need no conversion;
    /// Adobe RGB and Display P3 ones do (each file's own profile, as the decoder reads it).
    @Test(arguments: [("cameras/Apple_iPhone_4.jpg", false), ("cameras/Nikon_D5000.jpg", false),
                      ("cameras/Canon_EOS_7D.jpg", true), ("formats/iPhone13mini_P3_gainmap.jpg", true)])
    func onlyProfilesOtherThanSRGBAreConverted(_ file: String, converted: Bool) throws {
        let source = try OwnedFileDescriptor.openReadOnly(TestData.filePath(file))
        let decoder = try JPEGDecoder(file: source.descriptor, path: file)
        _ = try decoder.readHeader()
        let icc = try #require(decoder.iccProfile(), "\(file) has a profile")
        #expect((ColourTransform.from(icc: icc, channels: 3) != nil) == converted, "\(file)")
        #expect(ColourTransform.from(icc: ColourTransform.sRGBProfile, channels: 3) == nil)
    }

    /// A JPEG with an sRGB profile renders as the same JPEG without one.
    @Test func anSRGBProfileChangesNoByte() throws {
        func render(_ jpeg: [UInt8]) throws -> [UInt8] {
            let file = try OwnedFileDescriptor.memoryFile(holding: jpeg)
            return try Renderer().render(file.descriptor, spec: RenditionSpec(longestSide: 100), name: "sample").jpeg
        }
        #expect(try render(BuiltInImages.sRGBFingerprintSample()) == render(BuiltInImages.fingerprintSample()))
    }
}
