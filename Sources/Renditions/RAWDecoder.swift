import Containers
internal import CRaw
import Posix

/// LibRaw through its C bridge: size, orientation and the embedded preview LibRaw picks (the
/// largest, in practice), and a half-size decode for when no preview will do.
final class RAWDecoder {
    enum Preview { case jpeg([UInt8]), bitmap(PixelSize) }

    private let decoder: OpaquePointer
    private let path: String
    let size: PixelSize
    let rawSize: PixelSize
    let orientation: Orientation
    private(set) var preview: Preview?
    /// The colours of the camera's rendered previews, for a preview without a profile of its own:
    /// the RAW's ICC profile, else Adobe RGB where its EXIF says so; nil means sRGB.
    private(set) var previewColour: ColourTransform?

    /// Files up to this size are read whole and parsed from memory: LibRaw's parsers seek and read
    /// as they go, hundreds of system calls for a file (with ASan, a third of the fuzzer's time
    /// on RAW inputs of a few KB). Camera RAWs are larger, and are read as they are parsed.
    static let inMemoryBytes = 4 << 20

    /// Opens the file through /proc/self/fd (LibRaw reads by path), so the descriptor's file is
    /// read whatever its name now is. `inMemoryLimit`: the largest file parsed from memory.
    init(file: FileDescriptor, path: String, inMemoryLimit: Int = RAWDecoder.inMemoryBytes) throws(RenditionError) {
        guard let decoder = araw_decoder_new() else {
            throw RenditionError(.unreadable, path: path, reason: araw_unavailable().map { String(cString: $0) } ?? "out of memory")
        }
        self.decoder = decoder
        self.path = path
        var h = araw_header()
        let status = araw_open(decoder, "/proc/self/fd/\(file.rawValue)", inMemoryLimit, &h)
        size = PixelSize(width: Int(h.width), height: Int(h.height))
        rawSize = PixelSize(width: Int(h.raw_width), height: Int(h.raw_height))
        // dcraw's flip: 3 turns 180°, 5 turns 90° counter-clockwise, 6 clockwise; the others
        // (mirrors, rarely written) by their bits: 1 mirrors x, 2 mirrors y, 4 transposes.
        orientation = [0: .up, 1: .upMirrored, 2: .downMirrored, 3: .down, 4: .leftMirrored, 5: .left, 6: .right, 7: .rightMirrored][Int(h.flip)] ?? .up
        if status != 0 { throw RenditionError.bridge("RAW", failure: araw_failure(decoder), String(cString: araw_error(decoder)), path: path) }
        var data: UnsafePointer<UInt8>?
        var length = 0
        araw_profile(decoder, &data, &length)
        previewColour = data.flatMap { ColourTransform.from(icc: Array(UnsafeBufferPointer(start: $0, count: length)), channels: 3) }
            ?? (h.adobe_rgb != 0 ? ColourTransform.fromAdobeRGB() : nil)
        araw_preview(decoder, &data, &length)
        if let data, length > 0 {
            if h.preview == Int32(ARAW_PREVIEW_JPEG) {
                preview = .jpeg(Array(UnsafeBufferPointer(start: data, count: length)))
            } else if h.preview == Int32(ARAW_PREVIEW_BITMAP), h.preview_width > 0, h.preview_height > 0 {
                preview = .bitmap(PixelSize(width: Int(h.preview_width), height: Int(h.preview_height)))
            }
        }
    }

    deinit { araw_decoder_free(decoder) }

    /// A bitmap preview's RGB rows.
    func bitmapPreview() -> RowSource? {
        guard case .bitmap(let size) = preview else { return nil }
        var data: UnsafePointer<UInt8>?
        var length = 0
        araw_preview(decoder, &data, &length)
        guard let data, length >= size.width * size.height * 3 else { return nil }
        return BufferRowSource(base: data, size: size, stride: size.width * 3, layout: .rgb, owner: self)
    }

    /// Memory a half-size decode holds at its peak: the raw data (16 bits a photosite), LibRaw's
    /// four 16-bit channels at half size, and the 8-bit RGB result.
    var halfSizeDecodeBytes: Int {
        rawSize.width * rawSize.height * 2 + (size.width / 2 + 1) * (size.height / 2 + 1) * (8 + 3) + (16 << 20)
    }

    /// Half-size decode to 8-bit sRGB, already turned upright by LibRaw.
    func decodeHalfSize() throws(RenditionError) -> RowSource {
        var pixels: UnsafePointer<UInt8>?
        var width: Int32 = 0, height: Int32 = 0, channels: Int32 = 0
        guard araw_decode_half(decoder, &pixels, &width, &height, &channels) == 0, let pixels, width > 0, height > 0 else {
            throw RenditionError.bridge("RAW", failure: araw_failure(decoder), String(cString: araw_error(decoder)), path: path)
        }
        return BufferRowSource(base: pixels, size: PixelSize(width: Int(width), height: Int(height)),
                               stride: Int(width * channels), layout: channels == 1 ? .gray : .rgb, owner: self)
    }

    static var libraryVersion: String { String(cString: araw_version()) }
}
