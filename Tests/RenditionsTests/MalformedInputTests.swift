import Containers
import Foundation
import Testing
import Posix
@testable import Renditions

/// Broken, hostile and non-JPEG files: each gives the outcome `decodes_ok` allows, cleanly and quickly.
@Suite struct MalformedInputTests {
    static let files = TestData.expectations(in: "malformed", "formats")
    static let hangGuardSeconds = 30.0

    static func render(_ row: Expectation, box: Int = 256) -> (value: Result<Rendition, RenditionError>, seconds: Double)? {
        let path = FilePath(row.path)
        return withHangGuard(seconds: hangGuardSeconds, "rendering \(row.file)") {
            Result { () throws(RenditionError) in try Renderer().render(path, spec: RenditionSpec(longestSide: box, quality: 85)) }
        }
    }

    @Test(arguments: files)
    func outcomeIsWhatTheFileAllows(_ row: Expectation) throws {
        let isJPEG = TestData.prefix(row.file, count: 2) == [0xFF, 0xD8]
        let decodes = try #require(row.decodes)
        guard let (result, seconds) = Self.render(row) else { return }
        switch result {
        case .success(let rendition):
            print("\(row.file): rendition \(rendition.size) in \(fmt(seconds)) s, warnings \(rendition.warnings)")
        case .failure(let error):
            print("\(row.file): \(error.kind) in \(fmt(seconds)) s: \(error.reason)")
            #expect(error.path == row.path)
        }
        #expect(seconds < Self.hangGuardSeconds)

        // PNG, WebP, HEIC, ... and the PNG named .jpg: recognised by content and checked by FormatsTests.
        guard isJPEG else { return }
        switch (decodes, result) {
        case (.yes, .failure(let error)):
            Issue.record("\(row.file) decodes everywhere but failed: \(error)")
        case (.no, .success(let rendition)):
            Issue.record("\(row.file) decodes nowhere but gave a \(rendition.size) rendition")
        case (_, .success(let rendition)):
            let upright = try #require(row.upright)
            #expect(rendition.size == upright.fitted(longestSide: 256))
            let decoded = try Tools.djpeg(rendition.jpeg)
            #expect(PixelSize(width: decoded.width, height: decoded.height) == rendition.size)
            if decodes == .yes { #expect(rendition.warnings.isEmpty) }
        case (_, .failure(let error)):
            #expect(error.kind != .encodeFailed && error.kind != .unrecognised, "\(error)")
        }
    }

    /// The partial JPEGs: those whose djpeg column says `warn:` are ones libjpeg itself decodes (an
    /// image comes out, with a warning), so they must render; any partial that renders must say it
    /// is damaged. From expectations.csv, not from what the renderer happens to do.
    static let partialJPEGs = (files + TestData.expectations(in: "cameras")).filter {
        $0.decodes == .partial && TestData.prefix($0.file, count: 2) == [0xFF, 0xD8]
    }
    static func libjpegDecodes(_ row: Expectation) -> Bool {
        TestData.column("djpeg", of: row.file)?.hasPrefix("warn:") == true
    }

    @Test func thePartialJPEGsThatLibjpegDecodesAreKnown() {
        // Tests/Fixtures has 5 (Issue_308_bogus_make, extraneous-data, junk_jpeg_header and the two
        // truncated progressive files): an empty list would make the test below test nothing.
        #expect(Self.partialJPEGs.filter(Self.libjpegDecodes).count == 5)
    }

    /// README: a `partial` file that decodes anyway comes "with a warning" (Issue_308: "Expect a warning,
    /// not a failure"); the rendition must say so, so that callers can tell a damaged photo.
    @Test(arguments: partialJPEGs)
    func partialFilesThatDecodeRenderWithAWarning(_ row: Expectation) throws {
        guard let (result, _) = Self.render(row) else { return } // the hang guard recorded it
        switch result {
        case .success(let rendition):
            #expect(!rendition.warnings.isEmpty, "\(row.file): djpeg warns, the rendition has no warning")
            #expect(rendition.size == (try #require(row.upright)).fitted(longestSide: 256))
        case .failure(let error):
            if Self.libjpegDecodes(row) {
                Issue.record("\(row.file): djpeg decodes it (\(TestData.column("djpeg", of: row.file) ?? "")) but the render failed: \(error)")
            }
        }
    }

    /// A renderer that met every broken file still renders, and every failure gave its memory back.
    @Test func rendererKeepsWorkingAfterFailures() throws {
        let budget = MemoryBudget(bytes: 512 << 20)
        let renderer = Renderer(limits: RenderLimits(), budget: budget)
        for row in Self.files {
            let path = FilePath(row.path)
            _ = withHangGuard(seconds: Self.hangGuardSeconds, "rendering \(row.file)") {
                Result { () throws(RenditionError) in try renderer.render(path, spec: RenditionSpec(longestSide: 256)) }
            }
            #expect(budget.unused == budget.capacity, "\(row.file) kept memory reserved")
        }
        let rendition = try renderer.render(TestData.filePath("cameras/Olympus_C750UZ_progressive.jpg"), spec: RenditionSpec(longestSide: 100))
        #expect(rendition.size == PixelSize(width: 100, height: 100))
        #expect(budget.unused == budget.capacity)
    }
}
