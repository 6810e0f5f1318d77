import Containers
internal import CGIF
import Posix

/// giflib through its C bridge: the first frame on the logical screen, RGB rows, white where the
/// frame is transparent or absent.
final class GIFDecoder: RowSource {
    private let decoder: OpaquePointer
    private let path: String
    let size: PixelSize
    let frame: PixelSize
    let interlaced: Bool
    let layout = PixelLayout.rgb

    init(file: FileDescriptor, path: String) throws(RenditionError) {
        guard let decoder = agif_decoder_new(file.rawValue) else { throw RenditionError(.unreadable, path: path, reason: "out of memory") }
        self.decoder = decoder
        self.path = path
        var header = agif_header()
        let status = agif_read_header(decoder, &header)
        size = PixelSize(width: Int(header.width), height: Int(header.height))
        frame = PixelSize(width: Int(header.frame_width), height: Int(header.frame_height))
        interlaced = header.interlaced != 0
        if status != 0 { throw RenditionError.bridge("GIF", failure: agif_failure(decoder), String(cString: agif_error(decoder)), path: path) }
    }

    deinit { agif_decoder_free(decoder) }

    func readRows(into rows: UnsafeMutablePointer<UInt8>, count: Int) throws(RenditionError) -> Int {
        var read: Int32 = 0
        guard agif_read_rows(decoder, rows, Int32(count), &read) == 0 else {
            throw RenditionError.bridge("GIF", failure: agif_failure(decoder), String(cString: agif_error(decoder)), path: path)
        }
        return Int(read)
    }

    static var libraryVersion: Int { Int(agif_version()) }
}
