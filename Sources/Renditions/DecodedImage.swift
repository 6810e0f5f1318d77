import Containers
import Posix

/// Pixels of a small JPEG, for callers that need pixels rather than another JPEG (the desktop
/// thumbnails made from `thumbnail.jpg`): 8-bit grey (1 channel) or RGB (3), rows top to bottom.
public struct DecodedImage: Sendable {
    public var size: PixelSize
    public var channels: Int
    public var pixels: [UInt8]
}

extension Renderer {
    /// Decodes the JPEG at `path` and fits it into `longestSide` (never larger than it is), with the
    /// renderer's shrink-on-load and Lanczos3 filter; upright by its EXIF orientation. Meant for
    /// renditions (small, baseline): a progressive file needing over 64 MiB of coefficients is refused.
    public func decodePixels(_ path: FilePath, longestSide: Int) throws(RenditionError) -> DecodedImage {
        let name = path.description
        let owned: OwnedFileDescriptor
        do { owned = try OwnedFileDescriptor.openReadOnly(path) } catch { throw RenditionError(.unreadable, path: name, reason: error.description) }
        let file = owned.descriptor
        let orientation = Orientation.read(from: file)
        let decoder = try JPEGDecoder(file: file, path: name)
        let header = try decoder.readHeader()
        let stored = header.size
        guard stored.width > 0, stored.height > 0 else { throw RenditionError(.corrupt, path: name, reason: "image has no pixels (\(stored))") }
        guard stored.width * stored.height <= limits.maxPixels, header.coefficientBytes <= 64 << 20 else {
            throw RenditionError(.tooManyPixels, path: name, reason: "\(stored) is too large to decode whole")
        }
        let upright = orientation.swapsAxes ? stored.transposed : stored
        let uprightTarget = upright.fitted(longestSide: max(1, longestSide))
        let target = orientation.swapsAxes ? uprightTarget.transposed : uprightTarget
        try decoder.start(shrink: stored.shrinkOnLoadDenominator(toReach: target), memoryLimit: header.coefficientBytes + (64 << 20))
        // The renderer's own rows (converted from the decoder's layout) and its Lanczos3.
        let rows = ReducedRows(decoder, factor: 1)
        let channels = rows.channels
        var pixels = [UInt8](repeating: 0, count: target.width * target.height * channels)
        try pixels.withUnsafeMutableBufferPointer { (out) throws(RenditionError) in
            let output = out.baseAddress!
            guard rows.size == target else { return try resample(rows, to: target, into: output) }
            // Already the size wanted: rows straight through, no filter.
            for y in 0..<target.height {
                guard let row = try rows.nextRow() else {
                    throw RenditionError(.corrupt, path: name, reason: "image data ended after \(y) of \(target.height) rows")
                }
                (output + y * target.width * channels).update(from: row, count: target.width * channels)
            }
        }
        decoder.finish()
        guard orientation != .up else { return DecodedImage(size: target, channels: channels, pixels: pixels) }
        var turned = [UInt8](repeating: 0, count: pixels.count)
        pixels.withUnsafeBufferPointer { stored in
            turned.withUnsafeMutableBufferPointer { upright in
                for y in 0..<uprightTarget.height {
                    orientation.uprightRow(y, of: stored.baseAddress!, stored: target, channels: channels,
                                           into: upright.baseAddress! + y * uprightTarget.width * channels)
                }
            }
        }
        return DecodedImage(size: uprightTarget, channels: channels, pixels: turned)
    }
}
