import Containers
/// How the 8-bit samples of a decoded row are laid out.
enum PixelLayout: Equatable {
    case gray, grayAlpha, rgb, rgba
    /// RGBA with alpha already multiplied in (libtiff's RGBA image); `grayInRed`: a one-colour
    /// source whose gray value is in R (= G = B), delivered as one channel.
    case rgbaPremultiplied(grayInRed: Bool)
    /// Four-component JPEG (libjpeg-turbo converts YCCK to CMYK but not to RGB).
    case cmyk(adobeInverted: Bool)

    var inputChannels: Int {
        switch self {
        case .gray: 1
        case .grayAlpha: 2
        case .rgb: 3
        case .rgba, .rgbaPremultiplied, .cmyk: 4
        }
    }

    /// Channels of the rendition: 1 (gray) or 3 (RGB); alpha is flattened onto white.
    var outputChannels: Int {
        switch self {
        case .gray, .grayAlpha: 1
        case .rgbaPremultiplied(let gray): gray ? 1 : 3
        case .rgb, .rgba, .cmyk: 3
        }
    }

    /// Whether rows of this layout are rows of output samples already (`convert` copies them).
    var isOutput: Bool { self == .gray || self == .rgb }

    /// Converts `pixels` pixels of this layout into `outputChannels` samples each.
    @inline(__always)
    func convert(_ source: UnsafePointer<UInt8>, into destination: UnsafeMutablePointer<UInt8>, pixels: Int) {
        @inline(__always) func over(_ c: UInt8, _ a: UInt8) -> UInt8 {
            // straight alpha onto white: c·a + 255·(1 - a), rounded
            UInt8(truncatingIfNeeded: (Int(c) &* Int(a) &+ 255 &* (255 &- Int(a)) &+ 127) / 255)
        }
        // premultiplied c over white: c + 255·(1 - a)
        @inline(__always) func flat(_ c: UInt8, _ a: UInt8) -> UInt8 { UInt8(min(255, Int(c) + 255 - Int(a))) }
        /// RGBA rows to RGB, each colour blended with its alpha by `blend`.
        @inline(__always) func rgb(_ blend: (UInt8, UInt8) -> UInt8) {
            for i in 0..<pixels {
                let a = source[4 * i + 3]
                destination[3 * i] = blend(source[4 * i], a)
                destination[3 * i + 1] = blend(source[4 * i + 1], a)
                destination[3 * i + 2] = blend(source[4 * i + 2], a)
            }
        }
        switch self {
        case .gray, .rgb:
            destination.update(from: source, count: pixels * inputChannels)
        case .grayAlpha:
            for i in 0..<pixels { destination[i] = over(source[2 * i], source[2 * i + 1]) }
        case .rgba:
            rgb(over)
        case .rgbaPremultiplied(let gray):
            if gray {
                for i in 0..<pixels { destination[i] = flat(source[4 * i], source[4 * i + 3]) }
            } else {
                rgb(flat)
            }
        case .cmyk(let adobeInverted):
            // libjpeg-turbo turns YCCK into CMYK, not RGB. Adobe software stores CMYK inverted
            // (0 = full ink), others plain; inverted samples are "how much paper shows", so
            // R = (255 - C)(255 - K) in plain terms.
            for i in 0..<pixels {
                var c = Int(source[i * 4]), m = Int(source[i * 4 + 1]), y = Int(source[i * 4 + 2]), k = Int(source[i * 4 + 3])
                if !adobeInverted { c = 255 - c; m = 255 - m; y = 255 - y; k = 255 - k }
                destination[i * 3] = UInt8((c * k + 127) / 255)
                destination[i * 3 + 1] = UInt8((m * k + 127) / 255)
                destination[i * 3 + 2] = UInt8((y * k + 127) / 255)
            }
        }
    }
}

/// A decoded image read top to bottom, a few rows at a time: what every format's decoder gives
/// the resampler.
protocol RowSource: AnyObject {
    /// Size of the rows delivered (after any scaling done while decoding).
    var size: PixelSize { get }
    var layout: PixelLayout { get }
    /// Fills `rows` with up to `count` rows of `size.width * layout.inputChannels` bytes; 0 at the end.
    func readRows(into rows: UnsafeMutablePointer<UInt8>, count: Int) throws(RenditionError) -> Int
}

/// An image already decoded whole into memory (HEIF, WebP, RAW), read row by row. The memory
/// stays its owner's (the decoder object it was made from, kept alive by `owner`).
final class BufferRowSource: RowSource {
    let size: PixelSize
    let layout: PixelLayout
    private let base: UnsafePointer<UInt8>
    private let stride: Int
    private var next = 0
    private let owner: AnyObject

    init(base: UnsafePointer<UInt8>, size: PixelSize, stride: Int, layout: PixelLayout, owner: AnyObject) {
        precondition(stride >= size.width * layout.inputChannels, "row stride \(stride) too small for \(size)")
        self.base = base
        self.size = size
        self.stride = stride
        self.layout = layout
        self.owner = owner
    }

    func readRows(into rows: UnsafeMutablePointer<UInt8>, count: Int) throws(RenditionError) -> Int {
        let rowBytes = size.width * layout.inputChannels
        var done = 0
        while done < count && next < size.height {
            (rows + done * rowBytes).update(from: base + next * stride, count: rowBytes)
            next += 1
            done += 1
        }
        return done
    }
}

/// Reads a `RowSource` as rows of its output channels (alpha flattened, CMYK converted), box-
/// averaging `factor` × `factor` blocks first when the source is far larger than the target: a
/// cheap, alias-free reduction (as libvips' shrink before its final Lanczos) that leaves the
/// Lanczos filter at least 2× to do, for sources that cannot shrink while decoding.
final class ReducedRows {
    let source: RowSource
    let factor: Int
    let size: PixelSize
    let channels: Int
    private let batchRows = 16
    private let batch: UnsafeMutablePointer<UInt8>
    private let converted: UnsafeMutablePointer<UInt8>
    private let sums: UnsafeMutablePointer<UInt32>
    private let reduced: UnsafeMutablePointer<UInt8>
    private var available = 0, next = 0, ended = false

    init(_ source: RowSource, factor: Int) {
        self.source = source
        self.factor = max(1, factor)
        channels = source.layout.outputChannels
        // The Lanczos pass takes the boxes as an evenly spaced grid of `size` samples; a last,
        // partial box stretches that grid. Keep the partial box only when it is at least half a box
        // (else drop those few edge pixels, as libvips' shrink does), so the grid is off by at most
        // half a box at the far edge: with always-partial boxes a 20 MP AVIF lost 2.3 dB at 256 px.
        let k = max(1, factor)
        func boxes(_ length: Int) -> Int { max(1, length % k * 2 >= k ? length / k + 1 : length / k) }
        size = PixelSize(width: boxes(source.size.width), height: boxes(source.size.height))
        batch = .allocate(capacity: source.size.width * source.layout.inputChannels * batchRows)
        converted = .allocate(capacity: source.size.width * channels)
        sums = .allocate(capacity: size.width * channels)
        reduced = .allocate(capacity: size.width * channels)
    }

    deinit {
        batch.deallocate()
        converted.deallocate()
        sums.deallocate()
        reduced.deallocate()
    }

    /// The next source row in output channels (`source.size.width * channels` bytes, read before the
    /// next call), nil at the end of the source. A row the decoder gave in output channels already
    /// (RGB or gray: every JPEG) is handed out where the decoder wrote it, not copied (a 24 MP
    /// JPEG's rows copied cost 1% of its 1920 px rendition).
    private func sourceRow() throws(RenditionError) -> UnsafePointer<UInt8>? {
        if next == available {
            guard !ended else { return nil }
            available = try source.readRows(into: batch, count: batchRows)
            next = 0
            if available == 0 { ended = true; return nil }
        }
        let row = batch + next * source.size.width * source.layout.inputChannels
        next += 1
        guard !source.layout.isOutput else { return UnsafePointer(row) }
        source.layout.convert(row, into: converted, pixels: source.size.width)
        return UnsafePointer(converted)
    }

    /// The next row (`size.width * channels` bytes, read before the next call); nil when the source
    /// has no more rows.
    func nextRow() throws(RenditionError) -> UnsafePointer<UInt8>? {
        guard factor > 1 else { return try sourceRow() }
        let c = channels, k = factor, width = source.size.width
        sums.update(repeating: 0, count: size.width * c)
        var rows = 0
        while rows < k, let converted = try sourceRow() {
            for bx in 0..<size.width {
                let x0 = bx * k, x1 = min(width, x0 + k)
                for ch in 0..<c {
                    var total: UInt32 = 0
                    var p = x0 * c + ch
                    for _ in x0..<x1 { total &+= UInt32(converted[p]); p &+= c }
                    sums[bx * c + ch] &+= total
                }
            }
            rows += 1
        }
        guard rows > 0 else { return nil }
        for bx in 0..<size.width {
            let count = UInt32((min(width, bx * k + k) - bx * k) * rows)
            for ch in 0..<c { reduced[bx * c + ch] = UInt8(truncatingIfNeeded: (sums[bx * c + ch] + count / 2) / count) }
        }
        return UnsafePointer(reduced)
    }
}
