import Foundation
import Testing
import Posix
@testable import Renditions

/// An embedded preview without colour information of its own is in its photo's colours (issue 18,
/// item 2): a camera set to Adobe RGB renders its previews in Adobe RGB and says so once, for the
/// file. Files made here: no RAW fixture has both a usable preview and a wide-gamut colour space.
@Suite struct PreviewColourTests {
    static let sRGB = "/usr/share/color/icc/sRGB.icc"

    static func channelMeans(_ arguments: [String]) throws -> [Double] {
        FormatsTests.channelMeans(try PNM(try Tools.run(["convert"] + arguments + ["-depth", "8", "ppm:-"]).stdout))
    }

    /// The stripped Nikon D70 NEF (IFD0 carries Nikon's Adobe RGB profile) given a real JpgFromRaw
    /// without a profile, as the camera writes it: its rendition is that JPEG converted from the
    /// NEF's profile, like ImageMagick's lcms conversion. Before: taken as sRGB (means 143.5 /
    /// 143.6 / 48.0 against 126.9 / 143.5 / 29.0).
    @Test func aRAWPreviewWithoutAProfileIsInTheRAWsColours() throws {
        let folder = try Tools.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let preview = folder.appendingPathComponent("preview.jpg").path, nef = folder.appendingPathComponent("photo.nef").path
        let icc = folder.appendingPathComponent("nef.icc").path
        #expect(try Tools.run(["convert", "-size", "640x480", "gradient:#ff2020-#20ff40", "-quality", "95", preview]).status == 0)
        try FileManager.default.copyItem(atPath: TestData.path("raw/Nikon_D70_stripped.nef"), toPath: nef)
        #expect(try Tools.run(["exiftool", "-m", "-q", "-overwrite_original", "-JpgFromRaw<=\(preview)", nef]).status == 0)
        let profile = try Tools.run(["exiftool", "-icc_profile", "-b", nef]).stdout
        #expect(profile.count > 128 && FileManager.default.createFile(atPath: icc, contents: Data(profile)))

        let rendition = try Renderer().render(FilePath(nef), spec: RenditionSpec(longestSide: 256))
        let ours = FormatsTests.channelMeans(try Tools.djpeg(rendition.jpeg))
        let size = "\(rendition.size.width)x\(rendition.size.height)!"
        let converted = try Self.channelMeans([preview, "-profile", icc, "-profile", Self.sRGB, "-resize", size])
        let unconverted = try Self.channelMeans([preview, "-resize", size])
        let toConverted = zip(ours, converted).map { abs($0 - $1) }.max() ?? .infinity
        print("NEF preview: ours \(ours.map(fmt)), lcms from the NEF's profile \(converted.map(fmt)), as sRGB \(unconverted.map(fmt))")
        #expect(toConverted < FormatsTests.colourThreshold)
    }

    /// A HEIF whose thumbnail item has no colour box of its own while its primary image is Display
    /// P3: the 256 px rendition, made from the thumbnail item, is converted from P3.
    @Test func aHEIFThumbnailItemWithoutAProfileIsInThePrimarysColours() throws {
        let folder = try Tools.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let icc = folder.appendingPathComponent("p3.icc").path, png = folder.appendingPathComponent("p3.png").path
        let heic = folder.appendingPathComponent("p3.heic").path
        let profile = try Tools.run(["exiftool", "-icc_profile", "-b", TestData.path("formats/iPhone7_P3_thumb.heic")]).stdout
        #expect(FileManager.default.createFile(atPath: icc, contents: Data(profile)))
        #expect(try Tools.run(["convert", "-size", "640x480", "gradient:#ff2020-#20ff40", "-profile", icc, "-depth", "8", png]).status == 0)
        let encoded = folder.appendingPathComponent("encoded.heic").path
        #expect(try Tools.run(["heif-enc", "-q", "95", "-t", "320", png, "-o", encoded]).status == 0)
        // libheif 1.19's heif-enc labels the thumbnail item sRGB (an nclx colr of its own) though
        // its pixels are the primary's P3: take the label away, as 1.15's heif-enc wrote it.
        let edit = TestData.packageRoot.path + "/Tests/Tools/heif-edit.py"
        #expect(try Tools.run(["python3", edit, "no-thumbnail-colour", encoded, heic]).status == 0)

        let rendition = try Renderer().render(FilePath(heic), spec: RenditionSpec(longestSide: 256))
        let ours = FormatsTests.channelMeans(try Tools.djpeg(rendition.jpeg))
        let converted = try Self.channelMeans([png, "-profile", Self.sRGB, "-resize", "256x192!"])
        let toConverted = zip(ours, converted).map { abs($0 - $1) }.max() ?? .infinity
        print("HEIF thumbnail item: ours \(ours.map(fmt)), lcms from P3 \(converted.map(fmt))")
        #expect(toConverted < FormatsTests.colourThreshold)
    }
}
