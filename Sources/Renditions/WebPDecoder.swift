import Containers
internal import CWebP
import Posix

/// libwebp through its C bridge: a still image decoded straight to the size asked for (libwebp
/// scales while decoding), an animation's first frame at canvas size.
final class WebPDecoder {
    private let decoder: OpaquePointer
    private let path: String
    let size: PixelSize
    let animated: Bool

    /// Reads the whole file (at most `maxBytes`) and its container header.
    init(file: FileDescriptor, path: String, maxBytes: Int) throws(RenditionError) {
        guard let decoder = awebp_decoder_new(file.rawValue) else { throw RenditionError(.unreadable, path: path, reason: "out of memory") }
        self.decoder = decoder
        self.path = path
        var header = awebp_header()
        let status = awebp_read_header(decoder, maxBytes, &header)
        size = PixelSize(width: Int(header.width), height: Int(header.height))
        animated = header.animated != 0
        if status != 0 { throw RenditionError.bridge("WebP", failure: awebp_failure(decoder), String(cString: awebp_error(decoder)), path: path) }
    }

    deinit { awebp_decoder_free(decoder) }

    func chunk(_ fourcc: String) -> [UInt8]? {
        var data: UnsafePointer<UInt8>?
        var length = 0
        let code = Array(fourcc.utf8).map { CChar(bitPattern: $0) }
        guard code.withUnsafeBufferPointer({ awebp_chunk(decoder, $0.baseAddress, &data, &length) }) == 0,
              let data, length > 0 else { return nil }
        return Array(UnsafeBufferPointer(start: data, count: length))
    }

    /// Decodes at `scaled` (still images) or canvas size (animations).
    func decode(scaled: PixelSize) throws(RenditionError) -> RowSource {
        var pixels: UnsafePointer<UInt8>?
        var width: Int32 = 0, height: Int32 = 0, channels: Int32 = 0, stride: Int32 = 0
        guard awebp_decode(decoder, Int32(scaled.width), Int32(scaled.height), &pixels, &width, &height, &channels, &stride) == 0,
              let pixels else {
            throw RenditionError.bridge("WebP", failure: awebp_failure(decoder), String(cString: awebp_error(decoder)), path: path)
        }
        return BufferRowSource(base: pixels, size: PixelSize(width: Int(width), height: Int(height)), stride: Int(stride),
                               layout: channels == 4 ? .rgba : .rgb, owner: self)
    }

    static var libraryVersion: Int { Int(awebp_version()) }
}
