import Posix

/// A finished rendition: JPEG bytes, their pixel size, and the corrupt-data warnings met on the way.
public struct Rendition: Sendable {
    public var jpeg: [UInt8]
    public var size: PixelSize
    public var warnings: [String]
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

/// The streaming downscaler: shrink-on-load DCT decode → Lanczos3 over a ring of rows →
/// EXIF orientation → baseline JPEG. The whole source is never in memory; what is held is the
/// output image plus a few rows, so a 400 MP photo costs what a 12 MP one does.
public struct Renderer: Sendable {
    public var limits: RenderLimits
    public let budget: MemoryBudget

    public init(limits: RenderLimits = RenderLimits(), budget: MemoryBudget = MemoryBudget(bytes: 512 << 20)) {
        self.limits = limits
        self.budget = budget
    }

    /// Renders the photo at `path`. Its bytes depend only on the file's content, `spec` and this build (`Renderer.fingerprint`).
    public func render(_ path: FilePath, spec: RenditionSpec) throws(RenditionError) -> Rendition {
        let name = path.description
        let file: FileDescriptor
        do { file = try FileDescriptor.openReadOnly(path) } catch { throw RenditionError(.unreadable, path: name, reason: error.description) }
        defer { file.close() }
        return try render(file, spec: spec, name: name)
    }

    /// Renders the JPEG open at `file` (read with pread only: its offset is left alone).
    public func render(_ file: FileDescriptor, spec: RenditionSpec, name: String) throws(RenditionError) -> Rendition {
        let magic: [UInt8]
        do { magic = try file.read(upTo: 2, at: 0) } catch { throw RenditionError(.unreadable, path: name, reason: error.description) }
        guard magic == [0xFF, 0xD8] else {
            throw RenditionError(.notJPEG, path: name, reason: magic.isEmpty ? "empty file" : "no JPEG start-of-image marker")
        }
        let orientation = Orientation.read(from: file)
        let decoder = try JPEGDecoder(file: file, path: name)
        let header = try decoder.readHeader()
        let stored = header.size
        guard stored.width > 0, stored.height > 0 else { throw RenditionError(.corrupt, path: name, reason: "image has no pixels (\(stored))") }
        guard stored.width * stored.height <= limits.maxPixels else {
            throw RenditionError(.tooManyPixels, path: name, reason: "\(stored) is over the limit of \(limits.maxPixels / 1_000_000) megapixels")
        }
        let reservation = try reserveCoefficientMemory(header.coefficientBytes, name: name)
        defer { if let reservation { budget.release(reservation) } }

        let upright = orientation.swapsAxes ? stored.transposed : stored
        let uprightTarget = upright.fitted(longestSide: spec.longestSide)
        let target = orientation.swapsAxes ? uprightTarget.transposed : uprightTarget
        // Past the budget libjpeg fails instead of allocating; baseline decodes need only a few MB.
        try decoder.start(shrink: stored.shrinkOnLoadDenominator(toReach: target),
                          memoryLimit: header.coefficientBytes + (64 << 20))
        let channels = header.isCMYK ? 3 : decoder.outputComponents
        let colour = ColourConversion(decoderComponents: decoder.outputComponents, adobeInverted: header.adobeInverted)
        // An ICC profile of a CMYK source no longer describes the RGB we write.
        let icc = header.isCMYK ? nil : decoder.iccProfile()

        let pixels = UnsafeMutablePointer<UInt8>.allocate(capacity: target.width * target.height * channels)
        defer { pixels.deallocate() }
        try resample(decoder, into: pixels, target: target, channels: channels, colour: colour)
        decoder.finish()

        let jpeg = try encode(pixels, stored: target, upright: uprightTarget, channels: channels,
                              orientation: orientation, quality: spec.quality, icc: icc, name: name)
        let warnings = decoder.warnings
        let summary = warnings.count > 0 ? ["\(warnings.first) (\(warnings.count) warning\(warnings.count == 1 ? "" : "s"))"] : []
        return Rendition(jpeg: jpeg, size: uprightTarget, warnings: summary + decoder.lateErrors)
    }

    private func reserveCoefficientMemory(_ bytes: Int, name: String) throws(RenditionError) -> MemoryBudget.Reservation? {
        guard bytes > 0 else { return nil }
        do {
            return try budget.reserve(bytes, wait: limits.waitForMemory)
        } catch .exceedsCapacity {
            throw RenditionError(.overMemoryBudget, path: name, reason: "a progressive decode needs \(bytes >> 20) MiB, the budget is \(budget.capacity >> 20) MiB")
        } catch {
            throw RenditionError(.overMemoryBudget, path: name, reason: "a progressive decode needs \(bytes >> 20) MiB and other renders hold the budget")
        }
    }

    private func resample(_ decoder: JPEGDecoder, into pixels: UnsafeMutablePointer<UInt8>, target: PixelSize,
                          channels: Int, colour: ColourConversion) throws(RenditionError) {
        let decoded = decoder.outputSize
        let batchRows = 16
        let rowBytes = decoded.width * decoder.outputComponents
        let batch = UnsafeMutablePointer<UInt8>.allocate(capacity: rowBytes * batchRows)
        defer { batch.deallocate() }
        var available = 0, next = 0
        let resampler = StreamingResampler(from: decoded, to: target, channels: channels)
        do {
            try resampler.run(into: pixels) { row throws(RenditionError) in
                if next == available {
                    available = try decoder.readRows(into: batch, count: batchRows)
                    next = 0
                    if available == 0 { return false }
                }
                colour.convert(batch + next * rowBytes, into: row, pixels: decoded.width)
                next += 1
                return true
            }
        } catch let error as RenditionError {
            throw error
        } catch {
            fatalError("unreachable: the row source throws only RenditionError")
        }
    }

    private func encode(_ pixels: UnsafeMutablePointer<UInt8>, stored: PixelSize, upright: PixelSize, channels: Int,
                        orientation: Orientation, quality: Int, icc: [UInt8]?, name: String) throws(RenditionError) -> [UInt8] {
        let encoder = try JPEGEncoder(size: upright, components: channels, quality: quality, iccProfile: icc, path: name)
        if orientation == .up {
            for y in 0..<upright.height { try encoder.write(row: pixels + y * upright.width * channels) }
            return try encoder.finish()
        }
        let row = UnsafeMutablePointer<UInt8>.allocate(capacity: upright.width * channels)
        defer { row.deallocate() }
        for y in 0..<upright.height {
            for x in 0..<upright.width {
                let source = orientation.sourcePoint(x: x, y: y, stored: stored)
                let from = pixels + (source.y * stored.width + source.x) * channels
                for c in 0..<channels { row[x * channels + c] = from[c] }
            }
            try encoder.write(row: row)
        }
        return try encoder.finish()
    }
}
