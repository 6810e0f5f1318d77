import Containers
internal import CJPEG
import Glibc
import Posix

/// libjpeg-turbo decompression of one file, through the C bridge (which catches libjpeg's
/// longjmp errors). Owns the decoder; the file descriptor stays the caller's.
final class JPEGDecoder: RowSource {
    struct Header {
        var size: PixelSize
        var components: Int
        var isCMYK: Bool
        var adobeInverted: Bool
        var coefficientBytes: Int
    }

    private let decoder: OpaquePointer
    private let path: String
    private(set) var outputSize = PixelSize(width: 0, height: 0)
    private(set) var outputComponents = 0
    /// How the rows read are laid out: known from the header and the output components (`start`).
    private(set) var layout = PixelLayout.rgb
    private var cmyk: (isCMYK: Bool, adobeInverted: Bool) = (false, false)
    var size: PixelSize { outputSize }

    init(file: FileDescriptor, path: String) throws(RenditionError) {
        guard let decoder = ajpeg_decoder_new(file.rawValue) else {
            throw RenditionError(.unreadable, path: path, reason: "out of memory")
        }
        self.decoder = decoder
        self.path = path
    }

    deinit { ajpeg_decoder_free(decoder) }

    func readHeader() throws(RenditionError) -> Header {
        var header = ajpeg_header()
        try check(ajpeg_read_header(decoder, &header))
        // Sizes from the file. libjpeg caps a side at 65500 px, so these fit easily; checked anyway,
        // as everything after (allocations, the memory budget, libjpeg's memory limit) trusts them.
        guard header.width >= 0, header.height >= 0,
              let coefficientBytes = Int(exactly: header.coefficient_bytes), coefficientBytes <= Int.max - (64 << 20) else {
            throw RenditionError(.corrupt, path: path,
                                 reason: "implausible frame header (\(header.width)x\(header.height), \(header.coefficient_bytes) coefficient bytes)")
        }
        cmyk = (header.is_cmyk != 0, header.adobe_inverted != 0)
        return Header(size: PixelSize(width: Int(header.width), height: Int(header.height)),
                      components: Int(header.components), isCMYK: header.is_cmyk != 0,
                      adobeInverted: header.adobe_inverted != 0, coefficientBytes: coefficientBytes)
    }

    /// The embedded ICC profile, if any (call after `readHeader`).
    func iccProfile() -> [UInt8]? {
        var data: UnsafeMutablePointer<UInt8>?
        var length: UInt32 = 0
        guard ajpeg_icc_profile(decoder, &data, &length) == 0, let data else { return nil }
        defer { free(data) }
        return Array(UnsafeBufferPointer(start: data, count: Int(length)))
    }

    func start(shrink denominator: Int, memoryLimit: Int) throws(RenditionError) {
        var width: Int32 = 0, height: Int32 = 0, components: Int32 = 0
        try check(ajpeg_start(decoder, Int32(denominator), memoryLimit, &width, &height, &components))
        outputSize = PixelSize(width: Int(width), height: Int(height))
        outputComponents = Int(components)
        layout = cmyk.isCMYK ? .cmyk(adobeInverted: cmyk.adobeInverted) : outputComponents == 1 ? .gray : .rgb
    }

    /// Fills `rows` with up to `count` rows; returns how many came (0 at the end).
    func readRows(into rows: UnsafeMutablePointer<UInt8>, count: Int) throws(RenditionError) -> Int {
        var read: Int32 = 0
        try check(ajpeg_read_rows(decoder, rows, Int32(count), &read))
        return Int(read)
    }

    /// Reads the rest of the stream to its end, so damage there is reported. A fatal error this
    /// late is only a warning: the image is already made.
    func finish() {
        if ajpeg_finish(decoder) != 0 {
            let message = String(cString: ajpeg_decoder_error(decoder))
            lateErrors.append(message)
        }
    }

    private(set) var lateErrors: [String] = []

    /// Corrupt-data warnings so far (the data decoded anyway), with the first one's text.
    var warnings: (count: Int, first: String) {
        var first: UnsafePointer<CChar>?
        let count = ajpeg_decoder_warnings(decoder, &first)
        return (Int(count), first.map { String(cString: $0) } ?? "")
    }

    private func check(_ status: Int32) throws(RenditionError) {
        guard status != 0 else { return }
        throw RenditionError.bridge(nil, failure: ajpeg_decoder_failure(decoder), String(cString: ajpeg_decoder_error(decoder)), path: path)
    }
}
