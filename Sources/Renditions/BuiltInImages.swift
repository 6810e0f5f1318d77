import Containers
import Glibc
import Posix

/// Pictures the renderer makes from nothing: the placeholder shown for a photo that cannot be
/// rendered, and the sample whose rendition fingerprints the renderer's output.
enum BuiltInImages {
    /// Encodes `size` pixels of `components` channels, each byte given by `pixel(x, y, channel)`.
    static func jpeg(_ size: PixelSize, components: Int, quality: Int,
                     pixel: (Int, Int, Int) -> UInt8) throws(RenditionError) -> [UInt8] {
        let encoder = try JPEGEncoder(size: size, components: components, quality: quality, iccProfile: nil, path: "built-in image")
        var row = [UInt8](repeating: 0, count: size.width * components)
        for y in 0..<size.height {
            for x in 0..<size.width {
                for c in 0..<components { row[x * components + c] = pixel(x, y, c) }
            }
            try row.withUnsafeBufferPointer { buffer throws(RenditionError) in try encoder.write(row: buffer.baseAddress!) }
        }
        return try encoder.finish()
    }

    /// A neutral grey 4:3 picture crossed by two lighter diagonals: "this photo cannot be shown".
    static func placeholder() throws(RenditionError) -> [UInt8] {
        let size = PixelSize(width: 256, height: 192)
        return try jpeg(size, components: 1, quality: 85) { x, y, _ in
            let onDiagonal = abs(x * 3 - y * 4) < 8 || abs((size.width - 1 - x) * 3 - y * 4) < 8
            return onDiagonal ? 0xB0 : 0x80
        }
    }

    /// A photo-like sample with EXIF orientation 6 (turn right), so rendering it goes through
    /// shrink-on-load, the resampler, the orientation and the encoder.
    static func fingerprintSample() throws(RenditionError) -> [UInt8] {
        let size = PixelSize(width: 256, height: 160)
        let jpeg = try jpeg(size, components: 3, quality: 95) { x, y, c in
            let checker = (x / 16 + y / 16) % 2 == 0 ? 40 : 0
            return UInt8(truncatingIfNeeded: [x, y * 3 / 2, (x + y) / 2][c] + checker)
        }
        // APP1 "Exif": a big-endian TIFF header and one IFD holding Orientation (0x0112) = 6.
        let exif: [UInt8] = [0xFF, 0xE1, 0x00, 0x22, 0x45, 0x78, 0x69, 0x66, 0x00, 0x00,
                             0x4D, 0x4D, 0x00, 0x2A, 0x00, 0x00, 0x00, 0x08,
                             0x00, 0x01, 0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01, 0x00, 0x06, 0x00, 0x00,
                             0x00, 0x00, 0x00, 0x00]
        return Array(jpeg[..<2]) + exif + Array(jpeg[2...])
    }

    /// The sample as a camera set to Adobe RGB writes it: no profile, EXIF colour space 2 (and
    /// orientation 6), so the conversion of such JPEGs and RAW previews is fingerprinted too.
    static func adobeRGBFingerprintSample() throws(RenditionError) -> [UInt8] {
        let sample = try fingerprintSample()
        let exifLength = 2 + Int(sample[4]) << 8 + Int(sample[5])  // the marker and its APP1 above
        // IFD0: Orientation = 6 and the EXIF IFD's offset (38); the EXIF IFD: ColorSpace (0xA001) = 2.
        let tiff: [UInt8] = [0x4D, 0x4D, 0x00, 0x2A, 0x00, 0x00, 0x00, 0x08,
                             0x00, 0x02, 0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01, 0x00, 0x06, 0x00, 0x00,
                             0x87, 0x69, 0x00, 0x04, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x26, 0x00, 0x00, 0x00, 0x00,
                             0x00, 0x01, 0xA0, 0x01, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01, 0x00, 0x02, 0x00, 0x00,
                             0x00, 0x00, 0x00, 0x00]
        let app1: [UInt8] = [0xFF, 0xE1, 0x00, UInt8(2 + 6 + tiff.count)] + Array("Exif\0\0".utf8) + tiff
        return Array(sample[..<2]) + app1 + Array(sample[(2 + exifLength)...])
    }

    /// The sample with an sRGB profile embedded (lcms2's, in one APP2 ICC_PROFILE segment), as
    /// most cameras and phones write: such a profile is recognised and not converted
    /// (`ColourTransform.from(icc:channels:)`), and that path is fingerprinted too.
    static func sRGBFingerprintSample() throws(RenditionError) -> [UInt8] {
        let sample = try fingerprintSample()
        let profile = ColourTransform.sRGBProfile
        let length = 2 + 12 + 2 + profile.count
        let app2: [UInt8] = [0xFF, 0xE2, UInt8(length >> 8), UInt8(length & 0xFF)] + Array("ICC_PROFILE\0".utf8) + [1, 1] + profile
        return Array(sample[..<2]) + app2 + Array(sample[2...])
    }
}

extension Renderer {
    /// The placeholder JPEG served for a photo that cannot be rendered (same bytes every time).
    public static let placeholder: [UInt8]? = try? BuiltInImages.placeholder()

    /// A hash of what this build renders from a fixed sample: part of every cache key, so a change
    /// of output bytes (code, libjpeg-turbo, flags) can never meet sizes or bytes stored before it,
    /// without anyone remembering to bump a version.
    public static let fingerprint: String = {
        // The decoders' versions: their output can change without the JPEG sample's changing.
        var hashed = Array(Renderer.decoderVersions.utf8)
        do {
            for sample in [try BuiltInImages.fingerprintSample(), try BuiltInImages.adobeRGBFingerprintSample(),
                           try BuiltInImages.sRGBFingerprintSample(), FingerprintSamples.avif, FingerprintSamples.avifPQ, FingerprintSamples.heic10Bit] {
                let file = try OwnedFileDescriptor.memoryFile(holding: sample)
                for side in [24, 100] {
                    hashed += try Renderer().render(file.descriptor, spec: RenditionSpec(longestSide: side), name: "fingerprint sample").jpeg
                }
            }
        } catch {
            Log.warning("cannot fingerprint the renderer (\(error)); renditions will not be shared with other builds")
            hashed += Array("unfingerprinted \(getpid())".utf8)
        }
        return String(FNV1a.hash(hashed), radix: 16)
    }()
}

extension Renderer {
    /// The versions of the libraries that decode and convert non-JPEG sources.
    static var decoderVersions: String {
        "lcms2 \(ColourTransform.libraryVersion) libpng \(PNGDecoder.libraryVersion) libwebp \(WebPDecoder.libraryVersion) "
            + "giflib \(GIFDecoder.libraryVersion) libtiff \(TIFFDecoder.libraryVersion) libheif \(HEIFDecoder.libraryVersion) "
            + "LibRaw \(RAWDecoder.libraryVersion)"
    }
}
