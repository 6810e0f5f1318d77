import Containers
internal import CHEIF
import Posix

/// libheif through its C bridge (HEIC and AVIF): header facts without decoding, then the primary
/// image or its largest thumbnail item decoded whole, transforms (clap/irot/imir) applied by libheif.
/// Whole, not a grid's tiles one at a time (libheif 1.19 can): camera HEIFs such as formats-bench's
/// 33, 45 and 61 MP ones are single images, and whole decodes already peak below vipsthumbnail's
/// (at 1920 px: 300, 395 and 532 MB against 418, 554 and 608 MB; a 12 MP iPhone grid 84 against 93).
final class HEIFDecoder {
    /// A failure, and whether it is libheif's refusal of the content (the bridge's kind code):
    /// then a smaller picture the file carries may still be shown.
    struct Failure: Error {
        var error: RenditionError
        var refusedByLibheif: Bool
    }

    private let decoder: OpaquePointer
    private let path: String
    let size: PixelSize
    let thumbnail: PixelSize?
    let bitDepth: Int
    /// The primary image's colour conversion.
    let colour: ColourTransform?
    /// The thumbnail item's: its own colour information, else the primary image's (a thumbnail is
    /// a smaller copy of the primary, coded in its colours).
    let thumbnailColour: ColourTransform?

    /// `edits` (offset, bytes) change what libheif reads of the file, never its sizes or offsets.
    init(file: FileDescriptor, path: String, format: String, edits: [(offset: Int64, bytes: [UInt8])] = []) throws(Failure) {
        guard let decoder = aheif_decoder_new(file.rawValue) else {
            throw Failure(error: RenditionError(.unreadable, path: path, reason: aheif_unavailable().map { String(cString: $0) } ?? "out of memory"),
                          refusedByLibheif: false)
        }
        self.decoder = decoder
        self.path = path
        let edited = edits.allSatisfy { aheif_edit(decoder, $0.offset, $0.bytes, $0.bytes.count) == 0 }
        var h = aheif_header()
        let status = edited ? aheif_read_header(decoder, &h) : -1
        size = PixelSize(width: Int(h.width), height: Int(h.height))
        thumbnail = h.thumb_width > 0 && h.thumb_height > 0 ? PixelSize(width: Int(h.thumb_width), height: Int(h.thumb_height)) : nil
        bitDepth = Int(h.bits)
        colour = Self.transform(h.colour, icc: { aheif_icc(decoder, 0, &$0, &$1) })
        thumbnailColour = h.thumb_colour.kind == Int32(AHEIF_COLOUR_NONE)
            ? colour : Self.transform(h.thumb_colour, icc: { aheif_icc(decoder, 1, &$0, &$1) })
        if status != 0 { throw failure(format) }
    }

    /// The bridge's last failure, by its kind: libheif refused the content when it is the content's.
    private func failure(_ format: String) -> Failure {
        let kind = aheif_failure(decoder)
        let error = RenditionError.bridge(format, failure: kind, String(cString: aheif_error(decoder)), path: path)
        return Failure(error: error, refusedByLibheif: error.isContentFailure)
    }

    deinit { aheif_decoder_free(decoder) }

    /// The conversion to sRGB `colour` describes; `icc` hands over its ICC profile.
    private static func transform(_ colour: aheif_colour,
                                  icc: (inout UnsafePointer<UInt8>?, inout Int) -> Int32) -> ColourTransform? {
        switch Int(colour.kind) {
        case Int(AHEIF_COLOUR_ICC):
            var data: UnsafePointer<UInt8>?
            var length = 0
            _ = icc(&data, &length)
            return data.flatMap { ColourTransform.from(icc: Array(UnsafeBufferPointer(start: $0, count: length)), channels: 3) }
        case Int(AHEIF_COLOUR_NCLX):
            return ColourTransform.from(nclxPrimaries: Int(colour.primaries), transfer: Int(colour.transfer), red: (colour.rx, colour.ry),
                                        green: (colour.gx, colour.gy), blue: (colour.bx, colour.by), white: (colour.wx, colour.wy))
        default:
            return nil
        }
    }

    /// Bytes a whole decode of `size` holds at its peak, estimated from the header. Our own copy
    /// is libheif's planar RGB (3 bytes a pixel at 8 bits, 6 deeper); the codecs hold more. Peak RSS
    /// less the idle process (22 MB), one core: 12 MP HEIC grids 4.6 bytes a pixel, a 16 MP one 5.9,
    /// a 20 MP 8-bit AVIF 4.5, a 20 MP 10-bit AVIF 12.8. Hence 7 and 16.
    func decodeBytes(_ size: PixelSize) -> Int {
        size.width * size.height * (bitDepth > 8 ? 16 : 7) + (16 << 20)
    }

    /// Decodes the primary image or the thumbnail item to planes, read as 8-bit RGB(A) rows. The
    /// image must have the size its header gave (what the pixel cap and the budget were checked
    /// against): a damaged grid descriptor can make libheif assemble a far larger canvas.
    func decode(thumbnail: Bool, format: String) throws(Failure) -> RowSource {
        var width: Int32 = 0, height: Int32 = 0, channels: Int32 = 0
        guard aheif_decode_planes(decoder, thumbnail ? 1 : 0, &width, &height, &channels) == 0 else { throw failure(format) }
        let decoded = PixelSize(width: Int(width), height: Int(height))
        let expected = thumbnail ? self.thumbnail : size
        guard decoded == expected else {
            let reason = "\(format): the image decodes to \(decoded), its header says \(expected?.description ?? "none")"
            throw Failure(error: RenditionError(.corrupt, path: path, reason: reason), refusedByLibheif: true)
        }
        return Rows(self, size: decoded, layout: channels == 4 ? .rgba : .rgb, format: format)
    }

    private final class Rows: RowSource {
        let heif: HEIFDecoder
        let size: PixelSize
        let layout: PixelLayout
        let format: String
        init(_ heif: HEIFDecoder, size: PixelSize, layout: PixelLayout, format: String) {
            self.heif = heif
            self.size = size
            self.layout = layout
            self.format = format
        }
        func readRows(into rows: UnsafeMutablePointer<UInt8>, count: Int) throws(RenditionError) -> Int {
            var read: Int32 = 0
            guard aheif_read_rows(heif.decoder, rows, Int32(count), &read) == 0 else { throw heif.failure(format).error }
            return Int(read)
        }
    }

    static var libraryVersion: String { String(cString: aheif_version()) }
}
