import Containers
internal import CJPEG

/// libjpeg-turbo compression, one scanline at a time, into a buffer the encoder owns.
final class JPEGEncoder {
    private let encoder: OpaquePointer
    private let path: String

    init(size: PixelSize, components: Int, quality: Int, iccProfile: [UInt8]?, path: String) throws(RenditionError) {
        guard let encoder = ajpeg_encoder_new() else { throw RenditionError(.encodeFailed, path: path, reason: "out of memory") }
        self.encoder = encoder
        self.path = path
        let status = iccProfile.map { icc in
            icc.withUnsafeBufferPointer {
                ajpeg_encoder_start(encoder, Int32(size.width), Int32(size.height), Int32(components), Int32(quality), $0.baseAddress, UInt32($0.count))
            }
        } ?? ajpeg_encoder_start(encoder, Int32(size.width), Int32(size.height), Int32(components), Int32(quality), nil, 0)
        try check(status)
    }

    deinit { ajpeg_encoder_free(encoder) }

    func write(row: UnsafePointer<UInt8>) throws(RenditionError) {
        try check(ajpeg_encoder_write_row(encoder, row))
    }

    func finish() throws(RenditionError) -> [UInt8] {
        var bytes: UnsafePointer<UInt8>?
        var length = 0
        try check(ajpeg_encoder_finish(encoder, &bytes, &length))
        return Array(UnsafeBufferPointer(start: bytes, count: length))
    }

    private func check(_ status: Int32) throws(RenditionError) {
        guard status != 0 else { return }
        throw RenditionError(.encodeFailed, path: path, reason: String(cString: ajpeg_encoder_error(encoder)))
    }
}
