import Containers
import Testing
import Posix
@testable import Renditions

/// Same input, same bytes; no metadata carried over that would make viewers turn the picture again.
@Suite struct DeterminismTests {
    static let files = TestData.expectations(in: "orientation", "cameras")
        + ["malformed/cmyk_adobe.jpg", "malformed/grayscale.jpg", "malformed/progressive_small.jpg",
           "malformed/arithmetic_coded.jpg", "malformed/restarts.jpg"].compactMap(TestData.expectation)

    static func render(_ row: Expectation, box: Int = 256) throws -> Rendition {
        try Renderer().render(FilePath(row.path), spec: RenditionSpec(longestSide: box, quality: 85))
    }

    @Test(arguments: files)
    func sameFileGivesTheSameBytes(_ row: Expectation) throws {
        let first = try Self.render(row)
        let second = try Self.render(row)
        #expect(first.jpeg == second.jpeg)
        #expect(first.size == second.size)
    }

    /// Golden SHA-256 of renditions (quality 85) of a few fixtures at the thumbnail and fullscreen
    /// sizes. Rendering twice in one build cannot notice that the bytes changed between builds;
    /// these can. A deliberate change of output bytes (filter, encoder settings, colour handling)
    /// updates this table in the same commit; the renderer fingerprint in the cache key
    /// (`Renderer.fingerprint`) changes by itself and keeps renditions cached by the old renderer from being served.
    /// Recorded with libjpeg-turbo 2.1.5 (Debian 12); another libjpeg may change them too.
    static let golden: [(file: String, box: Int, sha256: String)] = [
        // Large enough to be downscaled at both sizes.
        ("orientation/Landscape_6.jpg", 256, "d4f0c7c3afd750963686f89eacfd8a24fd8599d1d36ae79fbc735f5d1ffb42d8"),
        ("orientation/Landscape_6.jpg", 1920, "d2a16ee5f1738b8e49bc8af0477ebcce5bfb6cac58c35beebf501daf21e56f6a"),
        ("orientation/Portrait_3.jpg", 256, "3afc7e096fc9fbdb3e158af5a07191b3f35048397593aa672173515c457996ad"),
        ("orientation/Portrait_3.jpg", 1920, "4297baa1f94a963ba10df326b5f6d761e3eda1869daaeb0c537d525f36724008"),
        ("cameras/canon_hdr_NO.jpg", 256, "23738020b58a0fc6d5e802f5e3b2f004d1a9e38b1c98ec6a40afd675dc015756"),
        ("cameras/canon_hdr_NO.jpg", 1920, "36ae6ac182b7f8fbb6a9ffe13605bc9e6069ad2893770c1e583ae90971669be5"),
        // Smaller than 256: re-encoded at their own size (the same bytes at 1920).
        ("cameras/Olympus_C750UZ_progressive.jpg", 256, "0503b2963e4fa4c326c33496342a6375ebc061fe7cb14a605edc650e4d03fbb4"),
        ("malformed/grayscale.jpg", 256, "fca8e53116b4ecc225a3635f7590713169116a5541505169db816e20155dcae8"),
        ("malformed/cmyk_adobe.jpg", 256, "4ce32347adcdafc4ec29f206796fa0a776a17a41b191e257b04df6b1e86eb1c8"),
        ("malformed/restarts.jpg", 256, "9050ff66fcd5e140fa4d212811a241eb1929ec64be93746cfcd9a6d0df08b79c"),
        ("malformed/restarts.jpg", 1920, "9050ff66fcd5e140fa4d212811a241eb1929ec64be93746cfcd9a6d0df08b79c"),
        // With an ICC profile (issue 10): converted to sRGB through it by lcms2 and written without a
        // profile. Added with that change; the entries above have no profile, so their bytes did not change.
        ("formats/Nikon_D1X_AdobeRGB.jpg", 256, "925982adccb9aca49dfb525a9f10baf84637d9f886f0fa202df1616cc9673efb"),
        ("formats/iPhone13mini_P3_gainmap.jpg", 256, "e651ff3699b4e32d6f997f8d6fb9bd799a4f03b683bea3c71e4eea2d3fb1637d"),
        // HEIF family, pinned when libheif's own Y'CbCr-to-RGB conversion replaced ours (libheif 1.15,
        // dav1d 1.0, libde265 1.0): 8-bit AVIF with irot, 10-bit AVIF, 8-bit HEIC grid. libheif 1.19
        // (bookworm-backports, what the bootstrap installs) scales 10-bit samples to 8 bits its own
        // way: the 10-bit AVIFs have a pin per libheif (`heifPinned`).
        ("formats/kimono_rotate90.avif", 256, "a924fee05e144c884eb52a0abdae601d9a995081f66890252bb20e4909d9c943"),
        ("formats/fox_10bit.avif", 256, heifPinned(["1.15": "9169f44d2389148d87e57cbd511e6d1aae4ca31bdd4a446835fa66329a827477",
                                                    "1.19": "9ac850c74ddd7e3524c3e1a0610aa5de396d5a25df4438f25957dc9e665e10a3"])),
        ("formats/cheers_1440x960.heic", 1920, "75dace5b1d44cecccade1ad784d2a11eb905f4d6b642d12d879fe355c2cc679e"),
        // Adobe RGB said by EXIF only (colour space uncalibrated, DCF "R03"), converted since issue 18.
        ("cameras/Olympus_PEN_E-P3.jpg", 256, "5cc55cc2a9db4c696346d1f44fc7573064dc0e9feffd07af751c11addb486e1c"),
        // HDR (PQ) tone-mapped to SDR, pinned again when the roll-off moved to the brightest channel,
        // and when 160 cd/m² became SDR white.
        ("formats/hdr_pq_10bit_p3.avif", 256, heifPinned(["1.19": "fd6e33b981d8c7893ca68c2d6a13a94ae49b9f42e6abfab9637f0a976d0d46f2"])),
    ]

    /// The pin for the libheif this process loads (major.minor), or a note that none is pinned
    /// for it: the test then fails, naming the version to pin.
    static func heifPinned(_ pins: [String: String]) -> String {
        let version = HEIFDecoder.libraryVersion.split(separator: ".").prefix(2).joined(separator: ".")
        return pins[version] ?? "no pin for libheif \(HEIFDecoder.libraryVersion)"
    }

    @Test(arguments: golden.map { Golden(file: $0.file, box: $0.box, sha256: $0.sha256) })
    func renditionBytesAreThePinnedOnes(_ golden: Golden) throws {
        let row = try #require(TestData.expectation(golden.file))
        let rendition = try Self.render(row, box: golden.box)
        let hash = try Self.sha256(rendition.jpeg)
        #expect(hash == golden.sha256, "\(golden.file) at \(golden.box): \(rendition.jpeg.count) bytes, sha256 \(hash)")
    }

    @Test func theGoldenTableCoversTwoSizes() {
        #expect(Set(Self.golden.map(\.box)) == [256, 1920])
        #expect(Set(Self.golden.map(\.file)).count >= 5)
    }

    /// The fingerprint also renders HEIF-family samples (a change in the HEIF bridge changes no JPEG's
    /// bytes); one that failed would leave every process a fingerprint of its own, sharing no cache.
    @Test func theFingerprintSamplesRender() throws {
        var renditions: [[UInt8]] = []
        for sample in [FingerprintSamples.avif, FingerprintSamples.avifPQ, FingerprintSamples.heic10Bit] {
            let file = try OwnedFileDescriptor.memoryFile(holding: sample)
            let rendition = try Renderer().render(file.descriptor, spec: RenditionSpec(longestSide: 24), name: "fingerprint sample")
            #expect(rendition.size == PixelSize(width: 24, height: 16))
            renditions.append(rendition.jpeg)
        }
        #expect(renditions[0] != renditions[1], "the PQ sample goes through the tone mapping")
    }

    /// The Adobe RGB sample differs from the plain one only in its EXIF colour space: its
    /// rendition (and so the fingerprint) goes through the conversion from Adobe RGB.
    @Test func theAdobeRGBFingerprintSampleIsConverted() throws {
        let renditions = try [BuiltInImages.fingerprintSample(), BuiltInImages.adobeRGBFingerprintSample()].map { sample in
            let file = try OwnedFileDescriptor.memoryFile(holding: sample)
            return try Renderer().render(file.descriptor, spec: RenditionSpec(longestSide: 100), name: "fingerprint sample")
        }
        #expect(renditions[0].size == renditions[1].size)
        #expect(renditions[1].size == PixelSize(width: 63, height: 100), "turned by its orientation 6")
        #expect(renditions[0].jpeg != renditions[1].jpeg)
    }

    struct Golden: Sendable, CustomTestStringConvertible {
        var file: String, box: Int, sha256: String
        var testDescription: String { "\(file) at \(box)" }
    }

    /// coreutils' sha256sum: an implementation independent of ours.
    static func sha256(_ bytes: [UInt8]) throws -> String {
        let output = try Tools.run(["sha256sum"], stdin: bytes)
        guard output.status == 0 else { throw PNM.Failure.tool("sha256sum exit \(output.status): \(output.stderr)") }
        return String(String(decoding: output.stdout, as: UTF8.self).prefix(64))
    }

    @Test(arguments: files)
    func renditionCarriesNoExif(_ row: Expectation) throws {
        let segments = try JPEGSegments.markers(of: try Self.render(row).jpeg)
        let exif = segments.filter { $0.marker == 0xE1 && $0.payload.starts(with: Array("Exif\0\0".utf8)) }
        #expect(exif.isEmpty, "\(row.file): rendition has an EXIF APP1 segment")
        #expect(segments.first?.marker == 0xE0, "JFIF APP0 first") // what libjpeg writes for gray and YCbCr
    }

    @Test(arguments: ["cameras/canon_hdr_NO.jpg", "cameras/Samsung_GT-I9000_Galaxy_S.jpg", "orientation/Landscape_6.jpg", "orientation/Portrait_6.jpg"])
    func orientationSixComesOutTurned(_ file: String) throws {
        let row = try #require(TestData.expectation(file))
        #expect(row.orientation == 6)
        let stored = PixelSize(width: try #require(row.width), height: try #require(row.height))
        let rendition = try Self.render(row)
        #expect(rendition.size == stored.transposed.fitted(longestSide: 256))
        let decoded = try Tools.djpeg(rendition.jpeg)
        #expect(PixelSize(width: decoded.width, height: decoded.height) == stored.transposed.fitted(longestSide: 256))
    }

    @Test func canonOrientationSixIsPortrait() throws {
        let rendition = try Self.render(try #require(TestData.expectation("cameras/canon_hdr_NO.jpg")))
        #expect(rendition.size == PixelSize(width: 192, height: 256)) // stored 2048x1536
    }
}
