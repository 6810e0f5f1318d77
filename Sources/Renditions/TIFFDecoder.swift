import Containers
internal import CTIFF
import Posix

/// libtiff through its C bridge: the first page as RGBA (alpha associated), a strip or a row of
/// tiles at a time, in stored orientation.
final class TIFFDecoder: RowSource {
    private let decoder: OpaquePointer
    private let path: String
    let size: PixelSize
    let orientation: Orientation
    let layout: PixelLayout
    /// Memory one band of decoded rows takes (budgeted by the caller).
    let bandBytes: Int

    init(file: FileDescriptor, path: String) throws(RenditionError) {
        guard let decoder = atiff_decoder_new(file.rawValue) else {
            throw RenditionError(.unreadable, path: path, reason: atiff_unavailable().map { String(cString: $0) } ?? "out of memory")
        }
        self.decoder = decoder
        self.path = path
        var header = atiff_header()
        let status = atiff_read_header(decoder, &header)
        size = PixelSize(width: Int(header.width), height: Int(header.height))
        orientation = Orientation(exifValue: Int(header.orientation))
        layout = .rgbaPremultiplied(grayInRed: header.gray != 0)
        bandBytes = Int(clamping: header.band_bytes)
        if status != 0 { throw RenditionError.bridge("TIFF", failure: atiff_failure(decoder), String(cString: atiff_error(decoder)), path: path) }
    }

    deinit { atiff_decoder_free(decoder) }

    var iccProfile: [UInt8]? {
        var data: UnsafePointer<UInt8>?
        var length: UInt32 = 0
        guard atiff_icc(decoder, &data, &length) == 0, let data, length > 0 else { return nil }
        return Array(UnsafeBufferPointer(start: data, count: Int(length)))
    }

    func readRows(into rows: UnsafeMutablePointer<UInt8>, count: Int) throws(RenditionError) -> Int {
        var read: Int32 = 0
        guard atiff_read_rows(decoder, rows, Int32(count), &read) == 0 else {
            throw RenditionError.bridge("TIFF", failure: atiff_failure(decoder), String(cString: atiff_error(decoder)), path: path)
        }
        return Int(read)
    }

    static var libraryVersion: String { String(cString: atiff_version()) }
}
