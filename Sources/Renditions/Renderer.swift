import Containers
import Posix
import PhotoSource

/// A finished rendition: JPEG bytes, their pixel size, and the corrupt-data warnings met on the way.
public struct Rendition: Sendable {
    public var jpeg: [UInt8]
    public var size: PixelSize
    public var warnings: [String]
    /// Why this is not the photo but a smaller picture the file carries (nil when it is the photo).
    public var previewReason: String? = nil
}

/// Limits that keep a hostile file from taking the process down.
public struct RenderLimits: Sendable {
    /// Largest frame accepted, checked from the header before anything is allocated.
    public var maxPixels: Int
    /// Whether a render waits for memory other renders hold (a server) or fails at once (one-shot).
    public var waitForMemory: Bool

    public init(maxPixels: Int = 512_000_000, waitForMemory: Bool = false) {
        self.maxPixels = maxPixels
        self.waitForMemory = waitForMemory
    }
}

/// The streaming downscaler: decode (shrinking while decoding where the format can) → alpha
/// flattened on white → box shrink where the decoder could not → Lanczos3 over a ring of rows →
/// sRGB through lcms2 → orientation → baseline JPEG. Formats are recognised by content
/// (`SourceFormat.sniff`). JPEG, PNG, GIF and TIFF stream rows, so what is held is the output
/// plus a few rows (plus a strip or tile band for TIFF); WebP decodes straight to the output
/// size; HEIF/AVIF and RAW decode whole, drawing on the shared `MemoryBudget` first.
public struct Renderer: Sendable {
    public var limits: RenderLimits
    public let budget: MemoryBudget
    /// The formats sniffed, in the registry's order, and the decoder of each photo format among them.
    var formats = SourceFormat.allCases
    var decoders = PhotoDecoder.builtIn

    public init(limits: RenderLimits = RenderLimits(), budget: MemoryBudget = MemoryBudget(bytes: 512 << 20)) {
        self.limits = limits
        self.budget = budget
    }

    /// The largest WebP file read into memory (libwebp decodes from memory).
    static let maxWebPFileBytes = 256 << 20

    /// Renders the photo at `path`. Its bytes depend only on the file's content, `spec` and this build (`Renderer.fingerprint`).
    public func render(_ path: FilePath, spec: RenditionSpec) throws(RenditionError) -> Rendition {
        let name = path.description
        let file: OwnedFileDescriptor
        do { file = try OwnedFileDescriptor.openReadOnly(path) } catch { throw RenditionError(.unreadable, path: name, reason: error.description) }
        return try render(file.descriptor, spec: spec, name: name)
    }

    /// Renders the photo open at `file` (read with pread only: its offset is left alone), in any
    /// format `SourceFormat` recognises, sniffed from its first bytes. `name` names it in errors;
    /// its extension only tells a TIFF-based RAW from a TIFF.
    public func render(_ file: FileDescriptor, spec: RenditionSpec, name: String) throws(RenditionError) -> Rendition {
        let head: [UInt8]
        do { head = try file.read(upTo: SourceFormat.headLength, at: 0) } catch { throw RenditionError(.unreadable, path: name, reason: error.description) }
        guard !head.isEmpty else { throw RenditionError(.unrecognised, path: name, reason: "empty file") }
        let fileName = Array(name.utf8.split(separator: UInt8(ascii: "/")).last ?? [])
        guard let format = SourceFormat.sniff(head, fileName: fileName, among: formats) else {
            throw RenditionError(.unrecognised, path: name, reason: "not a " + SourceFormat.readableSummary + " file")
        }
        return try render(file, format: format, spec: spec, name: name)
    }

    /// Renders the photo open at `file` as a file of `format`: what the scanner sniffed and the
    /// catalog stored for this very version of it (a mount's renders), so it is not sniffed again.
    /// A video's renditions are poster frames; a photo's are its format's decoder's.
    public func render(_ file: FileDescriptor, format: SourceFormat, spec: RenditionSpec, name: String) throws(RenditionError) -> Rendition {
        if format.isVideo { return try VideoPoster(renderer: self).render(file, spec: spec, name: name) }
        guard let decoder = decoders[format] else {
            throw RenditionError(.unrecognised, path: name, reason: "no decoder for \(format.facts.name) files")
        }
        return try decoder.render(self, file, spec, name)
    }

    // MARK: - formats

    /// JPEG: shrink-on-load DCT decode. `orientation` overrides the file's EXIF, `colour` is that
    /// of a JPEG without a profile of its own (both for a RAW's preview).
    func renderJPEG(_ file: FileDescriptor, spec: RenditionSpec, name: String, orientation: Orientation?,
                            colour: ColourTransform? = nil) throws(RenditionError) -> Rendition {
        let decoder = try JPEGDecoder(file: file, path: name)
        let exif = JPEGEXIF.read(from: file)
        return try renderJPEG(decoder, header: try decoder.readHeader(), spec: spec, name: name, orientation: orientation ?? exif.orientation,
                              colour: colour ?? (exif.isAdobeRGB ? ColourTransform.fromAdobeRGB() : nil))
    }

    /// The JPEG path from a header already read (a RAW preview's, read to decide whether it will do).
    /// `colour`: the conversion of a JPEG without a profile of its own (a RAW preview in its RAW's colours).
    func renderJPEG(_ decoder: JPEGDecoder, header: JPEGDecoder.Header, spec: RenditionSpec, name: String,
                            orientation: Orientation, colour fallback: ColourTransform? = nil) throws(RenditionError) -> Rendition {
        let stored = header.size
        try checkPixels(stored, name: name)
        let reservation = try reserve(header.coefficientBytes, for: "a progressive decode", name: name)
        defer { withExtendedLifetime(reservation) {} }

        let target = stored.fitted(longestSide: spec.longestSide)
        // Past the budget libjpeg fails instead of allocating; baseline decodes need only a few MB.
        try decoder.start(shrink: stored.shrinkOnLoadDenominator(toReach: target),
                          memoryLimit: header.coefficientBytes + (64 << 20))
        // An ICC profile of a CMYK source does not describe the RGB made from it.
        let own = decoder.iccProfile()
        let colour = header.isCMYK ? nil
            : own == nil && decoder.layout.outputChannels == 3 ? fallback : ColourTransform.from(icc: own, channels: decoder.layout.outputChannels)
        var rendition = try finish(decoder, target: target, reduce: false, orientation: orientation, colour: colour,
                                   spec: spec, name: name)
        decoder.finish()
        let warnings = decoder.warnings
        let summary = warnings.count > 0 ? ["\(warnings.first) (\(warnings.count) warning\(warnings.count == 1 ? "" : "s"))"] : []
        rendition.warnings = summary + decoder.lateErrors
        return rendition
    }

    func renderPNG(_ file: FileDescriptor, spec: RenditionSpec, name: String) throws(RenditionError) -> Rendition {
        let png = try PNGDecoder(file: file, path: name)
        try checkPixels(png.size, name: name)
        // Adam7 cannot stream: the whole image is decoded into one buffer first.
        let reservation = png.interlaced
            ? try reserve(png.size.width * png.size.height * png.layout.inputChannels, for: "an interlaced PNG", name: name) : nil
        defer { withExtendedLifetime(reservation) {} }
        let colour = ColourTransform.from(icc: png.iccProfile, channels: png.layout.outputChannels)
        return try finish(png, target: png.size.fitted(longestSide: spec.longestSide), reduce: true,
                          orientation: PNGDecoder.exifOrientation(of: file), colour: colour, spec: spec, name: name)
    }

    func renderWebP(_ file: FileDescriptor, spec: RenditionSpec, name: String) throws(RenditionError) -> Rendition {
        let webp = try WebPDecoder(file: file, path: name, maxBytes: Self.maxWebPFileBytes)
        try checkPixels(webp.size, name: name)
        let target = webp.size.fitted(longestSide: spec.longestSide)
        // A still image decodes straight to the target; an animation's frame is composited on a
        // whole canvas (libwebp's animation decoder keeps two).
        let decoded = webp.animated ? webp.size : target
        let reservation = try reserve(decoded.width * decoded.height * 4 * (webp.animated ? 2 : 1), for: "a WebP decode", name: name)
        defer { withExtendedLifetime(reservation) {} }
        let rows = try webp.decode(scaled: decoded)
        let colour = ColourTransform.from(icc: webp.chunk("ICCP"), channels: 3)
        let orientation = webp.chunk("EXIF").map(Orientation.read(exif:)) ?? .up
        return try finish(rows, target: target, reduce: true, orientation: orientation, colour: colour, spec: spec, name: name)
    }

    func renderGIF(_ file: FileDescriptor, spec: RenditionSpec, name: String) throws(RenditionError) -> Rendition {
        let gif = try GIFDecoder(file: file, path: name)
        try checkPixels(gif.size, name: name)
        let reservation = gif.interlaced ? try reserve(gif.frame.width * gif.frame.height, for: "an interlaced GIF frame", name: name) : nil
        defer { withExtendedLifetime(reservation) {} }
        return try finish(gif, target: gif.size.fitted(longestSide: spec.longestSide), reduce: true, orientation: .up,
                          colour: nil, spec: spec, name: name)
    }

    func renderTIFF(_ file: FileDescriptor, spec: RenditionSpec, name: String) throws(RenditionError) -> Rendition {
        let tiff = try TIFFDecoder(file: file, path: name)
        try checkPixels(tiff.size, name: name)
        let reservation = try reserve(tiff.bandBytes, for: "a TIFF strip", name: name)
        defer { withExtendedLifetime(reservation) {} }
        let colour = ColourTransform.from(icc: tiff.iccProfile, channels: tiff.layout.outputChannels)
        return try finish(tiff, target: tiff.size.fitted(longestSide: spec.longestSide), reduce: true,
                          orientation: tiff.orientation, colour: colour, spec: spec, name: name)
    }

    // MARK: - shared steps

    func checkPixels(_ size: PixelSize, name: String) throws(RenditionError) {
        guard size.width > 0, size.height > 0 else { throw RenditionError(.corrupt, path: name, reason: "image has no pixels (\(size))") }
        guard size.width <= limits.maxPixels / size.height else {
            throw RenditionError(.tooManyPixels, path: name, reason: "\(size) is over the limit of \(limits.maxPixels / 1_000_000) megapixels")
        }
    }

    /// `bytes` of the shared budget for `what` (nil when none are needed), given back when the
    /// caller lets the reservation go. Callers hold it to the end of their scope with
    /// `defer { withExtendedLifetime(reservation) {} }`: it says so where the memory is used.
    func reserve(_ bytes: Int, for what: String, name: String) throws(RenditionError) -> MemoryBudget.Reservation? {
        guard bytes > 0 else { return nil }
        do {
            return try budget.reserve(bytes, wait: limits.waitForMemory)
        } catch .overCeiling {
            throw RenditionError(.overMemoryBudget, path: name,
                                 reason: "\(what) needs \(bytes >> 20) MiB; this machine allows one render \(budget.ceiling >> 20) MiB (half its memory)")
        } catch {
            throw RenditionError(.overMemoryBudget, path: name, reason: "\(what) needs \(bytes >> 20) MiB and other renders hold the budget")
        }
    }

    /// Resamples `source` to `target` (stored orientation), converts to sRGB, orients and encodes.
    /// `reduce`: box-shrink first when the source is far larger (formats that cannot shrink while decoding).
    /// Upright photos stream: each resampled row is converted and encoded as it comes, with no
    /// image buffer (a 1920 px rendition held 7 MB, whose page faults cost as much as its encoding's
    /// colour conversion). Other orientations read the rows in another order, so they are kept whole.
    func finish(_ source: RowSource, target: PixelSize, reduce: Bool, orientation: Orientation, colour: ColourTransform?,
                        spec: RenditionSpec, name: String) throws(RenditionError) -> Rendition {
        let factor = reduce ? max(1, min(source.size.width / target.width, source.size.height / target.height) / 2) : 1
        let rows = ReducedRows(source, factor: factor)
        let channels = rows.channels
        let colour = colour?.channels == channels ? colour : nil
        let upright = orientation.swapsAxes ? target.transposed : target
        if orientation == .up {
            let encoder = try JPEGEncoder(size: target, components: channels, quality: spec.quality, iccProfile: nil, path: name)
            try resample(rows, to: target) { (row) throws(RenditionError) in
                colour?.apply(row, count: target.width)
                try encoder.write(row: row)
            }
            return Rendition(jpeg: try encoder.finish(), size: target, warnings: [])
        }
        let pixels = UnsafeMutablePointer<UInt8>.allocate(capacity: target.width * target.height * channels)
        defer { pixels.deallocate() }
        try resample(rows, to: target, into: pixels)
        colour?.apply(pixels, count: target.width * target.height)
        let jpeg = try encode(pixels, stored: target, upright: upright, channels: channels, orientation: orientation,
                              quality: spec.quality, name: name)
        return Rendition(jpeg: jpeg, size: upright, warnings: [])
    }

    /// `rows` resampled (Lanczos3) to `target` into `pixels`.
    func resample(_ rows: ReducedRows, to target: PixelSize, into pixels: UnsafeMutablePointer<UInt8>) throws(RenditionError) {
        var next = pixels
        let rowLength = target.width * rows.channels
        try resample(rows, to: target) { row in
            next.update(from: row, count: rowLength)
            next += rowLength
        }
    }

    /// `rows` resampled (Lanczos3) to `target`, each output row handed to `emit` top to bottom.
    func resample(_ rows: ReducedRows, to target: PixelSize,
                  emit: (UnsafeMutablePointer<UInt8>) throws(RenditionError) -> Void) throws(RenditionError) {
        let resampler = StreamingResampler(from: rows.size, to: target, channels: rows.channels)
        try resampler.run(nextRow: { () throws(RenditionError) in try rows.nextRow() }, emit: emit)
    }

    func encode(_ pixels: UnsafeMutablePointer<UInt8>, stored: PixelSize, upright: PixelSize, channels: Int,
                        orientation: Orientation, quality: Int, name: String) throws(RenditionError) -> [UInt8] {
        // sRGB out and no profile: what viewers assume of a JPEG without one.
        let encoder = try JPEGEncoder(size: upright, components: channels, quality: quality, iccProfile: nil, path: name)
        if orientation == .up {
            for y in 0..<upright.height { try encoder.write(row: pixels + y * upright.width * channels) }
            return try encoder.finish()
        }
        let row = UnsafeMutablePointer<UInt8>.allocate(capacity: upright.width * channels)
        defer { row.deallocate() }
        for y in 0..<upright.height {
            orientation.uprightRow(y, of: pixels, stored: stored, channels: channels, into: row)
            try encoder.write(row: row)
        }
        return try encoder.finish()
    }
}
