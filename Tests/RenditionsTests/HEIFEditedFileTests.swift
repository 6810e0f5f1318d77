import Containers
import Foundation
import Posix
import Testing
@testable import Renditions

/// HEIFs no encoder here writes, made by editing real ones (Tests/Tools/heif-edit.py): a
/// clean-aperture crop of a larger coded image (issue 29 item 2), iOS 18's shared auxiliary image
/// (item 1), and photos libheif cannot decode whose thumbnail item it can.
@Suite struct HEIFEditedFileTests {
    /// A temporary folder, removed with the value.
    final class Edited {
        let folder: URL
        init() throws { folder = try Tools.makeTemporaryDirectory() }
        deinit { try? FileManager.default.removeItem(at: folder) }
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

        /// `heif-edit.py command source output arguments...`: the output's path.
        func edit(_ source: String, _ command: String, _ arguments: String...) throws -> FilePath {
            let output = path("edited-\(command)")
            let result = try Tools.run([TestData.packageRoot.path + "/Tests/Tools/heif-edit.py", command, source, output] + arguments)
            try #require(result.status == 0, "heif-edit.py \(command): \(result.stderr)")
            return FilePath(output)
        }
    }

    static func render(_ path: FilePath, _ side: Int) throws -> Rendition {
        try Renderer().render(path, spec: RenditionSpec(longestSide: side, quality: 85))
    }

    /// Link-U's kimono (coded 1024x722, irot 90) cropped by clap to 330x385, shown 385x330: libheif
    /// was told a limit from the cropped size (834 px) and refused the coded 1024 px image.
    @Test func aCleanApertureCropOfALargerCodedImageDecodes() throws {
        let edited = try Edited()
        let path = try edited.edit(TestData.path("formats/kimono_rotate90.avif"), "clap", "330", "385")
        let small = try Self.render(path, 256), whole = try Self.render(path, 1920)
        #expect(small.size == PixelSize(width: 256, height: 219))
        #expect(whole.size == PixelSize(width: 385, height: 330))
        #expect(small.previewReason == nil && whole.previewReason == nil)
        // The crop's pixels as libheif's own heif-convert shows them (clap, then irot).
        let reference = edited.path("reference.png")
        try #require(try Tools.run(["heif-convert", path.description, reference]).status == 0)
        let error = try #require(try Tools.djpeg(whole.jpeg).meanAbsoluteError(try Tools.convert(reference, [])))
        #expect(error < 3, "mean absolute error \(error)")
    }

    /// iOS 18 (iPhone 16) HEICs share one auxiliary image among several images: libheif 1.15 refuses
    /// the whole file ("Too many auxiliary image references"), 1.18 and later read it.
    @Test func aSharedAuxiliaryImageAsIOS18WritesIt() throws {
        let edited = try Edited()
        let picture = edited.path("alpha.png"), heic = edited.path("alpha.heic")
        try #require(try Tools.run(["convert", "-size", "640x480", "gradient:red-blue", "-depth", "8", "-alpha", "set",
                                    "-channel", "A", "-evaluate", "set", "80%", "+channel", picture]).status == 0)
        try #require(try Tools.run(["heif-enc", "-t", "160", "-q", "60", picture, "-o", heic]).status == 0)
        let path = try edited.edit(heic, "share-aux")
        let rendition = try Self.render(path, 1920)
        if Self.libheifReadsIOS18 {
            #expect(rendition.size == PixelSize(width: 640, height: 480))
            #expect(rendition.previewReason == nil)
        } else {
            #expect(rendition.size == PixelSize(width: 160, height: 120))
            #expect(rendition.previewReason?.contains("Too many auxiliary image references") == true, "\(rendition.previewReason ?? "")")
        }
    }

    /// libheif 1.18 is the first to read iOS 18's HEICs (VIEWS-AND-IDENTITY.md §9).
    static var libheifReadsIOS18: Bool {
        let version = HEIFDecoder.libraryVersion.split(separator: ".").compactMap { Int($0) }
        return version.count >= 2 && (version[0], version[1]) >= (1, 18)
    }

    /// A photo whose primary image libheif cannot decode (here coded as no decoder knows) shows its
    /// largest thumbnail item instead, upright by the item's own irot, the same bytes every time,
    /// and says so.
    @Test(arguments: [("formats/cheers_1440x960.heic", "hvcX", PixelSize(width: 240, height: 160)),
                      ("formats/iPhone12Pro_irot_gainmap.heic", "xrid", PixelSize(width: 240, height: 320))])
    func aPhotoLibheifCannotDecodeShowsItsLargestThumbnailItem(_ file: String, _ type: String, _ shown: PixelSize) throws {
        let edited = try Edited()
        let path = try edited.edit(TestData.path(file), "primary-type", type)
        let first = try Self.render(path, 1920), again = try Self.render(path, 1920)
        #expect(first.size == shown)
        #expect(first.jpeg == again.jpeg)
        let reason = try #require(first.previewReason)
        #expect(reason.contains("\(shown) thumbnail item") && reason.contains("libheif"), "\(reason)")
        // The thumbnail item's own picture, decoded by FFmpeg from its HEVC stream.
        let stream = try Tools.run([TestData.packageRoot.path + "/Tests/Tools/heif-thumbnail-item.py", TestData.path(file)])
        try #require(stream.status == 0)
        let item = edited.path("item.png")
        try #require(try Tools.run(["ffmpeg", "-v", "error", "-y", "-f", "hevc", "-i", "-", item], stdin: stream.stdout).status == 0)
        let decoded = try Tools.convert(item, [])
        let expected = shown.width == decoded.width ? decoded : decoded.turnedClockwise
        let error = try #require(try Tools.djpeg(first.jpeg).meanAbsoluteError(expected))
        #expect(error < 6, "mean absolute error \(error)")
    }

    /// Without a thumbnail item there is nothing else to show: libheif's reason, as before.
    @Test func withoutAThumbnailItemLibheifsReasonStands() throws {
        let edited = try Edited()
        let path = try edited.edit(TestData.path("formats/Nikon_D5300_small.heic"), "primary-type", "hvcX")
        #expect {
            _ = try Self.render(path, 256)
        } throws: { error in
            (error as? RenditionError)?.kind == .corrupt && (error as? RenditionError)?.reason.hasPrefix("HEIF: ") == true
        }
    }
}
