import CBridgeFailure
import Containers
import Foundation
import Testing
import Posix
import PhotoSource
@testable import Renditions

/// Issue 10: every file of Tests/Fixtures/formats and raw (and the PNG named .jpg) through the
/// renderer: the outcome expectations.csv allows, sizes that fit the box with the upright aspect,
/// pixels upright against an independent decoder, colours converted to sRGB, same bytes twice.
@Suite struct FormatsTests {
    static let files = TestData.expectations(in: "formats", "raw") + [TestData.expectation("malformed/png_named_jpg.jpg")].compactMap { $0 }
    static let box = 256
    /// The renderer's default limits and budget (512 MiB): enough for every file here, the 20 MP
    /// 10-bit AVIF included (estimated 346 MB; see `overTheBudgetAHEIFDecodeFailsCleanly` for past it).
    static func renderer() -> Renderer { Renderer() }

    static func render(_ row: Expectation, box: Int = box) -> (value: Result<Rendition, RenditionError>, seconds: Double)? {
        let path = FilePath(row.path)
        return withHangGuard(seconds: 60, "rendering \(row.file)") {
            Result { () throws(RenditionError) in try Self.renderer().render(path, spec: RenditionSpec(longestSide: box, quality: 85)) }
        }
    }

    @Test func theFixturesAreThere() {
        #expect(Self.files.count >= 40)
    }

    @Test(arguments: files)
    func outcomeIsWhatTheCSVAllows(_ row: Expectation) throws {
        let decodes = try #require(row.decodes)
        guard let (result, seconds) = Self.render(row) else { return }
        switch (decodes, result) {
        case (.no, .success(let rendition)):
            Issue.record("\(row.file) decodes nowhere but gave a \(rendition.size) rendition")
        case (.yes, .failure(let error)):
            Issue.record("\(row.file) decodes everywhere but failed: \(error)")
        case (_, .failure(let error)):
            print("\(row.file): \(error.kind) in \(fmt(seconds)) s: \(error.reason)")
            #expect(error.path == row.path)
            #expect(error.kind != .encodeFailed && error.kind != .unrecognised && error.isContentFailure, "\(error)")
        case (_, .success(let rendition)):
            print("\(row.file): \(rendition.size) in \(fmt(seconds)) s")
            let upright = try #require(row.upright)
            if row.file.hasPrefix("raw/") {
                // A RAW's preview may be cropped differently from the sensor image: its
                // orientation (landscape or portrait) must agree, and it must fit the box.
                #expect((rendition.size.width >= rendition.size.height) == (upright.width >= upright.height), "\(rendition.size) vs \(upright)")
                #expect(max(rendition.size.width, rendition.size.height) <= Self.box)
            } else {
                #expect(rendition.size == upright.fitted(longestSide: Self.box))
            }
            let decoded = try Tools.djpeg(rendition.jpeg)
            #expect(PixelSize(width: decoded.width, height: decoded.height) == rendition.size)
            #expect(Array(rendition.jpeg.prefix(3)) == [0xFF, 0xD8, 0xFF])
        }
        #expect(seconds < 30)
    }

    // MARK: pixels against an independent decoder

    /// ImageMagick (heif-convert for HEIF/AVIF, which applies irot/imir) decodes, orients,
    /// flattens on white, converts to sRGB where the file has a profile, and resizes to our size.
    /// Mean absolute error per sample, measured here at 256 px: 0.3-3.4 for the files below
    /// (JPEG q85 and the two resamplers); every wrong way round (mirrored, flipped, turned) of
    /// an asymmetric picture is 9 or more. Hence 6.
    static let uprightThreshold = 6.0
    /// Renditions made from a HEIF thumbnail item (a separately encoded small picture) against the
    /// reference's full decode: measured 0.9-10.2 (iPhone 7 10.2, Samsung A32 8.6; the same
    /// iPhone 7 file at 400 px from the full decode: 3.9), wrong ways round still 46 or more.
    static let thumbnailThreshold = 12.0
    static let thumbnailSourced: Set<String> = ["formats/iPhone7_P3_thumb.heic", "formats/Samsung_A32_thumb.heic",
                                                "formats/iPhone12Pro_irot_gainmap.heic", "formats/Samsung_S22_irot_motion.heic"]
    static let pixelFiles = files.filter {
        $0.decodes == .yes && !$0.file.hasPrefix("raw/") && ($0.width ?? 0) >= 64 && ($0.height ?? 0) >= 64 // JPEG q85 on 6x6 or 32x32 test patterns measures only JPEG
            && !["formats/hdr_pq_10bit_p3.avif", "formats/Canon_70D_8bit.avif"].contains($0.file) // 20 MP: reference takes 30 s
    }

    static let sRGBProfilePath: String = {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("assetfs-test-sRGB-\(getpid()).icc").path
        precondition(FileManager.default.createFile(atPath: path, contents: Data(ColourTransform.sRGBProfile)), "cannot write \(path)")
        return path
    }()

    /// Photos whose EXIF says Adobe RGB without a profile (DCF's "R03"): ImageMagick is told the profile.
    static let assignedProfiles = ["cameras/Olympus_PEN_E-P3.jpg": "/usr/share/color/icc/compatibleWithAdobeRGB1998.icc"]

    static func reference(_ row: Expectation, size: PixelSize, gray: Bool, convertToSRGB: Bool = true) throws -> PNM {
        var input = row.path + "[0]"
        var cleanup: URL?
        if row.file.hasSuffix(".heic") || row.file.hasSuffix(".heif") || row.file.hasSuffix(".avif") {
            let folder = try Tools.makeTemporaryDirectory()
            cleanup = folder
            let png = folder.appendingPathComponent("reference.png").path
            let output = try Tools.run(["heif-convert", row.path, png])
            guard output.status == 0 else { throw PNM.Failure.tool("heif-convert exit \(output.status): \(output.stderr)") }
            // A file of several top-level images comes out as reference-1.png, -2, ...: the primary is the largest.
            let written = try FileManager.default.contentsOfDirectory(atPath: folder.path).map { folder.appendingPathComponent($0).path }
            func bytes(_ path: String) -> Int { (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0 }
            input = written.contains(png) ? png : written.max { bytes($0) < bytes($1) } ?? png
        }
        defer { if let cleanup { try? FileManager.default.removeItem(at: cleanup) } }
        var arguments = ["convert", input, "-auto-orient"]
        if convertToSRGB { arguments += (Self.assignedProfiles[row.file].map { ["-profile", $0] } ?? []) + ["-profile", sRGBProfilePath] }
        arguments += ["-background", "white", "-flatten", "-alpha", "off", "-resize", "\(size.width)x\(size.height)!"]
        arguments += gray ? ["-colorspace", "gray", "-depth", "8", "pgm:-"] : ["-depth", "8", "ppm:-"]
        let output = try Tools.run(arguments)
        guard output.status == 0 else { throw PNM.Failure.tool("convert exit \(output.status): \(output.stderr)") }
        return try PNM(output.stdout)
    }

    @Test(arguments: pixelFiles)
    func pixelsAreUprightAgainstAnIndependentDecoder(_ row: Expectation) throws {
        let rendition = try Self.renderer().render(FilePath(row.path), spec: RenditionSpec(longestSide: Self.box))
        let ours = try Tools.djpeg(rendition.jpeg)
        let reference = try Self.reference(row, size: rendition.size, gray: ours.channels == 1)
        let upright = try #require(ours.meanAbsoluteError(reference), "shapes differ: ours \(ours), reference \(reference)")
        let wrong = [reference.mirrored, reference.flipped, reference.turned].compactMap { ours.meanAbsoluteError($0) }
        print("MAE \(row.file): upright \(fmt(upright)), wrong ways round \(wrong.map(fmt))")
        #expect(upright < (Self.thumbnailSourced.contains(row.file) ? Self.thumbnailThreshold : Self.uprightThreshold))
        // Where the picture is not symmetric, the comparison can tell a wrong orientation.
        for error in wrong where error > Self.uprightThreshold { #expect(error > upright) }
    }

    /// RAW renditions from embedded previews against the preview as another program extracts it:
    /// LibRaw's `simple_dcraw -e` (libraw-bin; its `dcraw_emu` has no -e), and exiftool for the CR3
    /// and the JPEG XL DNG LibRaw 0.20 refuses (we find the CR3's PRVW box and the DNG's preview IFDs ourselves). Same threshold as above: measured 3.2-3.6.
    static let rawPreviews: [(file: String, tool: String)] = [("raw/Fujifilm_S5Pro_stripped.raf", "simple_dcraw"),
                                                              ("raw/Canon_R6_pruned.cr3", "exiftool"),
                                                              ("raw/Nikon_Z9_jxl.dng", "exiftool")]

    @Test(arguments: rawPreviews.map(\.file))
    func rawPreviewPixelsMatchAnotherExtractor(_ file: String) throws {
        let row = try #require(TestData.expectation(file))
        let rendition = try Self.renderer().render(FilePath(row.path), spec: RenditionSpec(longestSide: Self.box))
        let ours = try Tools.djpeg(rendition.jpeg)
        let folder = try Tools.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let copy = folder.appendingPathComponent((file as NSString).lastPathComponent).path
        try FileManager.default.copyItem(atPath: row.path, toPath: copy)
        let preview: String
        if Self.rawPreviews.first(where: { $0.file == file })?.tool == "simple_dcraw" {
            let output = try Tools.run(["simple_dcraw", "-e", copy])
            guard output.status == 0 else { throw PNM.Failure.tool("simple_dcraw exit \(output.status): \(output.stderr)") }
            preview = copy + ".thumb.jpg"
        } else {
            let output = try Tools.run(["exiftool", "-b", "-PreviewImage", copy])
            guard output.status == 0, !output.stdout.isEmpty else { throw PNM.Failure.tool("exiftool exit \(output.status): \(output.stderr)") }
            preview = copy + ".preview.jpg"
            guard FileManager.default.createFile(atPath: preview, contents: Data(output.stdout)) else { throw PNM.Failure.tool("cannot write \(preview)") }
        }
        let output = try Tools.run(["convert", preview, "-resize", "\(rendition.size.width)x\(rendition.size.height)!", "-depth", "8", "ppm:-"])
        guard output.status == 0 else { throw PNM.Failure.tool("convert exit \(output.status): \(output.stderr)") }
        let reference = try PNM(output.stdout)
        let upright = try #require(ours.meanAbsoluteError(reference), "shapes differ: ours \(ours), reference \(reference)")
        let wrong = [reference.mirrored, reference.flipped, reference.turned].compactMap { ours.meanAbsoluteError($0) }
        print("MAE \(file) preview: upright \(fmt(upright)), wrong ways round \(wrong.map(fmt))")
        #expect(upright < Self.uprightThreshold)
        // The Z9 DNG's previews are plain white (mean 255, no variance): there only the finding and the size are checked.
        for error in wrong where error > Self.uprightThreshold { #expect(error > upright) }
    }

    // MARK: colour

    /// Wide-gamut sources (every Display P3 and Adobe RGB fixture: PNG, JPEGs with a profile and
    /// one with only EXIF's "R03", HEICs from the full image or from a thumbnail item) come out in sRGB, like
    /// ImageMagick's `-profile sRGB.icc` conversion (lcms2 too, but its own decode, order and
    /// resize). Compared by each channel's mean over the picture, which is what a conversion moves
    /// (saturation: "dull" colours) and what resampling and JPEG noise leave alone: per-pixel
    /// error is dominated by the two resamplers on detailed pictures (5.6 on the P3 foliage PNG,
    /// converted or not). Measured: 0.4-1.3 from ImageMagick's conversion (it converts before
    /// resizing, at 16 bits; we convert after, like libvips, and a non-linear transform of averages
    /// is not the average of transforms: most on the saturated P3 foliage, 1.3), while the
    /// conversion itself moves the means by up to 3.8 there. Hence: within 2.0 of the conversion,
    /// and, where the conversion moves a mean by more than 1, nearer to it than to the unconverted pixels.
    /// Issue 18 measured (ours against the conversion, largest channel): 0.4-1.5, and 1.30 for the
    /// R03 JPEG (16.5 before: taken as sRGB).
    ///
    /// A thumbnail made from a HEIF's thumbnail item shows that item's picture, which need not be
    /// the primary's: the iPhone 7's 320x240 item is bluer than its full image (decoded by FFmpeg and
    /// converted by ImageMagick, 1.6 from the full image's conversion; by libheif, 2.3). So a
    /// rendition passes when it is one of the two pictures converted to sRGB, within the threshold
    /// and nearer to it than to the same picture as stored.
    static let colourFiles = ["formats/DisplayP3_iCCP_eXIf.png", "formats/iPhone13mini_P3_gainmap.jpg", "formats/Nikon_D1X_AdobeRGB.jpg",
                              "cameras/Canon_EOS_7D.jpg", "cameras/Olympus_PEN_E-P3.jpg", "formats/iPhone11ProMax_cropped.heic",
                              "formats/iPhone11Pro_portrait_noirot.heic", "formats/iPhone12Pro_irot_gainmap.heic",
                              "formats/iPhone7_P3_thumb.heic", "formats/iPhone_XR_irot.heic"]
    static let colourThreshold = 2.0

    static func channelMeans(_ image: PNM) -> [Double] {
        var sums = [Double](repeating: 0, count: image.channels)
        for (i, sample) in image.samples.enumerated() { sums[i % image.channels] += Double(sample) }
        return sums.map { $0 / Double(image.width * image.height) }
    }

    /// A HEIF's HEVC thumbnail item decoded by FFmpeg (Tests/Tools/heif-thumbnail-item.py takes
    /// it out of the file) and, with `convertToSRGB`, converted by ImageMagick from the file's ICC
    /// profile, at `size`: the picture a thumbnail made from that item shows. Nil without such an item.
    static func thumbnailItem(_ row: Expectation, size: PixelSize, convertToSRGB: Bool) throws -> PNM? {
        guard row.file.hasSuffix(".heic") else { return nil }
        let folder = try Tools.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let stream = try Tools.run([TestData.packageRoot.path + "/Tests/Tools/heif-thumbnail-item.py", row.path])
        guard stream.status == 0 else { return nil }
        let hevc = folder.appendingPathComponent("item.hevc"), png = folder.appendingPathComponent("item.png").path
        let icc = folder.appendingPathComponent("file.icc").path
        try Data(stream.stdout).write(to: hevc)
        let decoded = try Tools.run(["ffmpeg", "-v", "error", "-i", hevc.path, "-frames:v", "1", "-y", png])
        guard decoded.status == 0 else { throw PNM.Failure.tool("ffmpeg exit \(decoded.status): \(decoded.stderr)") }
        var options = ["-resize", "\(size.width)x\(size.height)!"]
        if convertToSRGB {
            let profile = try Tools.run(["exiftool", "-icc_profile", "-b", row.path]).stdout
            guard profile.count > 128, FileManager.default.createFile(atPath: icc, contents: Data(profile)) else { return nil }
            options = ["-profile", icc, "-profile", sRGBProfilePath] + options
        }
        return try Tools.convert(png, options)
    }

    @Test(arguments: colourFiles)
    func wideGamutSourcesAreConvertedToSRGB(_ file: String) throws {
        let row = try #require(TestData.expectation(file))
        let rendition = try Self.renderer().render(FilePath(row.path), spec: RenditionSpec(longestSide: Self.box))
        let ours = Self.channelMeans(try Tools.djpeg(rendition.jpeg))
        let converted = Self.channelMeans(try Self.reference(row, size: rendition.size, gray: false))
        let unconverted = Self.channelMeans(try Self.reference(row, size: rendition.size, gray: false, convertToSRGB: false))
        let toConverted = zip(ours, converted).map { abs($0 - $1) }.max() ?? .infinity
        let toUnconverted = zip(ours, unconverted).map { abs($0 - $1) }.max() ?? 0
        print("colour \(file): channel means ours \(ours.map(fmt)), ImageMagick sRGB \(converted.map(fmt)), unconverted \(unconverted.map(fmt)); "
              + "largest difference \(fmt(toConverted)) vs \(fmt(toUnconverted))")
        // The pictures the rendition may show, in sRGB and as stored: the full image, and its thumbnail item if any.
        var pictures = [(name: "full image", converted: converted, unconverted: unconverted)]
        if let item = try Self.thumbnailItem(row, size: rendition.size, convertToSRGB: true),
           let itemAsStored = try Self.thumbnailItem(row, size: rendition.size, convertToSRGB: false) {
            pictures.append((name: "thumbnail item", converted: Self.channelMeans(item), unconverted: Self.channelMeans(itemAsStored)))
        }
        let shown = pictures.filter { picture in
            let toConverted = zip(ours, picture.converted).map { abs($0 - $1) }.max() ?? .infinity
            let toUnconverted = zip(ours, picture.unconverted).map { abs($0 - $1) }.max() ?? 0
            let conversionMoves = zip(picture.converted, picture.unconverted).contains { abs($0 - $1) > 1 }
            print("colour \(file): \(picture.name) converted \(picture.converted.map(fmt)), as stored \(picture.unconverted.map(fmt)); "
                  + "ours \(fmt(toConverted)) from the first, \(fmt(toUnconverted)) from the second")
            return toConverted < Self.colourThreshold && (!conversionMoves || toUnconverted > toConverted)
        }
        #expect(!shown.isEmpty, "\(file): the rendition is neither picture converted to sRGB")
        // The rendition carries no ICC profile (APP2) any more: its pixels are sRGB.
        #expect(!(try JPEGSegments.markers(of: rendition.jpeg)).contains { $0.marker == 0xE2 })
    }

    // MARK: determinism and limits

    @Test(arguments: files.filter { $0.decodes != .no })
    func sameBytesTwice(_ row: Expectation) throws {
        guard let (first, _) = Self.render(row), case .success(let a) = first else { return }
        guard let (second, _) = Self.render(row), case .success(let b) = second else {
            Issue.record("\(row.file) rendered once and failed the second time")
            return
        }
        #expect(a.jpeg == b.jpeg)
    }

    /// The decode budget throttles (issue 18): a HEIF that needs more than the whole budget runs
    /// alone, also in a one-shot renderer (`assetfs render`); only past the ceiling is it refused.
    @Test func aHEIFDecodeOverTheBudgetRunsAloneAndOverTheCeilingFailsCleanly() throws {
        let path = TestData.filePath("formats/iPhone_XR_irot.heic")
        let budget = MemoryBudget(bytes: 32 << 20)
        let rendition = try Renderer(budget: budget).render(path, spec: RenditionSpec(longestSide: 1920))
        #expect(max(rendition.size.width, rendition.size.height) == 1920)
        #expect(budget.unused == budget.capacity)
        let small = Renderer(budget: MemoryBudget(bytes: 16 << 20, ceiling: 32 << 20))
        do {
            _ = try small.render(path, spec: RenditionSpec(longestSide: 1920))
            Issue.record("rendered over the ceiling")
        } catch {
            #expect(error.kind == .overMemoryBudget)
            #expect(error.reason.contains("32 MiB"), "\(error)")
        }
    }

    @Test func aHEIFThumbnailItemIsUsedWhenLargeEnough() throws {
        // 4032x3024 with a 320x240 thumbnail item: 256 px comes from the thumbnail in a fraction of a full decode.
        let path = TestData.filePath("formats/iPhone7_P3_thumb.heic")
        let small = withHangGuard(seconds: 60, "thumbnail") { try? Self.renderer().render(path, spec: RenditionSpec(longestSide: 256)) }
        let large = withHangGuard(seconds: 60, "full decode") { try? Self.renderer().render(path, spec: RenditionSpec(longestSide: 400)) }
        let (s, ts) = try #require(small), (l, tl) = try #require(large)
        #expect(s?.size == PixelSize(width: 256, height: 192))
        #expect(l?.size == PixelSize(width: 400, height: 300))
        print("iPhone7_P3_thumb.heic: 256 px (thumbnail item) \(fmt(ts)) s, 400 px (full decode) \(fmt(tl)) s")
        #expect(ts * 3 < tl)
    }

    /// What a bridge's failure means follows the kind it reports, never its words (issue 30 item
    /// 5): a read error, no memory or a cancel may pass; the rest is the content's, whatever its
    /// message says.
    @Test func aBridgesFailureIsDecidedByItsKindNotItsMessage() {
        for kind in [BRIDGE_FAILURE_READ, BRIDGE_FAILURE_OUT_OF_MEMORY, BRIDGE_FAILURE_CANCELLED] {
            #expect(!RenditionError.bridge("HEIF", failure: Int32(kind), "IDAT: CRC error", path: "p").isContentFailure)
        }
        #expect(RenditionError.bridge("PNG", failure: Int32(BRIDGE_FAILURE_CORRUPT), "read error: reworded", path: "p").isContentFailure)
        #expect(RenditionError.bridge("TIFF", failure: Int32(BRIDGE_FAILURE_UNSUPPORTED), "Sorry, can not handle", path: "p").kind == .unsupported)
        #expect(RenditionError.bridge(nil, failure: Int32(BRIDGE_FAILURE_UNRECOGNISED), "starts with 0x89 0x50", path: "p").kind == .unrecognised)
        #expect(RenditionError.bridge("WebP", failure: Int32(BRIDGE_FAILURE_TOO_LARGE), "file of 300000000 bytes", path: "p")
                == RenditionError(.corrupt, path: "p", reason: "WebP: file of 300000000 bytes"))
    }

    @Test func thePixelLimitStopsAPNGBeforeDecoding() throws {
        let renderer = Renderer(limits: RenderLimits(maxPixels: 1000))
        do {
            _ = try renderer.render(TestData.filePath("formats/sampleWithExifData.png"), spec: RenditionSpec(longestSide: 64))
            Issue.record("a 256x256 PNG rendered under a 1000-pixel limit")
        } catch { #expect(error.kind == .tooManyPixels) }
    }

    // MARK: recognition by content

    static func expectedFormat(_ file: String) -> SourceFormat? {
        if file == "malformed/png_named_jpg.jpg" { return .png }
        switch (file as NSString).pathExtension.lowercased() {
        case "jpg", "jpeg": return .jpeg
        case "heic", "heif": return .heif
        case "avif": return .avif
        case "png": return .png
        case "webp": return .webp
        case "gif": return .gif
        case "tif", "tiff": return .tiff
        default: return .raw
        }
    }

    @Test(arguments: files + TestData.expectations(in: "cameras", "orientation"))
    func sniffTellsTheFormatFromContent(_ row: Expectation) {
        let head = TestData.prefix(row.file, count: SourceFormat.headLength)
        let name = Array((row.file as NSString).lastPathComponent.utf8)
        #expect(SourceFormat.sniff(head, fileName: name) == Self.expectedFormat(row.file), "\(row.file)")
        // Content, not name: renamed to .jpg, a file keeps its format (TIFF-based RAW aside).
        if Self.expectedFormat(row.file) != .raw || head.starts(with: Array("FUJIFILM".utf8)) {
            #expect(SourceFormat.sniff(head, fileName: Array("x.jpg".utf8)) == Self.expectedFormat(row.file), "\(row.file) named .jpg")
        }
    }

    @Test func sniffRejectsWhatIsNoImage() {
        #expect(SourceFormat.sniff([], fileName: []) == nil)
        #expect(SourceFormat.sniff(Array("hello world, not an image".utf8), fileName: Array("a.jpg".utf8)) == nil)
        // An ISO media file of no image brand is a video.
        #expect(SourceFormat.sniff([0, 0, 0, 0x18] + Array("ftypmp42".utf8) + [0, 0, 0, 0] + Array("isommp42".utf8), fileName: []) == .mp4)
        #expect(SourceFormat.sniff([0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0], fileName: Array("IMG.NEF".utf8)) == .raw)
        #expect(SourceFormat.sniff([0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0], fileName: Array("scan.tif".utf8)) == .tiff)
        #expect(SourceFormat.allCases.allSatisfy { $0.mimeType.hasPrefix($0.isVideo ? "video/" : "image/") })
    }
}
