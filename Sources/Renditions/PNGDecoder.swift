internal import CPNG
import Containers
import PhotoSource
import Posix

/// libpng through its C bridge: rows streamed as they are decoded (an interlaced file is decoded
/// whole first: the caller budgets that buffer), 8-bit, palette and transparency expanded.
final class PNGDecoder: RowSource {
    private let decoder: OpaquePointer
    private let path: String
    private(set) var size = PixelSize(width: 0, height: 0)
    private(set) var layout = PixelLayout.rgb
    private(set) var interlaced = false

    init(file: FileDescriptor, path: String) throws(RenditionError) {
        guard let decoder = apng_decoder_new(file.rawValue) else { throw RenditionError(.unreadable, path: path, reason: "out of memory") }
        self.decoder = decoder
        self.path = path
        var header = apng_header()
        try check(apng_read_header(decoder, &header))
        size = PixelSize(width: Int(header.width), height: Int(header.height))
        layout = [1: .gray, 2: .grayAlpha, 3: .rgb, 4: .rgba][Int(header.channels)] ?? .rgb
        guard (1...4).contains(header.channels) else { throw RenditionError(.unsupported, path: path, reason: "PNG: \(header.channels) channels") }
        interlaced = header.interlaced != 0
    }

    deinit { apng_decoder_free(decoder) }

    var iccProfile: [UInt8]? {
        var data: UnsafePointer<UInt8>?
        var length: UInt32 = 0
        guard apng_icc(decoder, &data, &length) == 0, let data, length > 0 else { return nil }
        return Array(UnsafeBufferPointer(start: data, count: Int(length)))
    }

    func readRows(into rows: UnsafeMutablePointer<UInt8>, count: Int) throws(RenditionError) -> Int {
        var read: Int32 = 0
        try check(apng_read_rows(decoder, rows, Int32(count), &read))
        return Int(read)
    }

    private func check(_ status: Int32) throws(RenditionError) {
        guard status != 0 else { return }
        throw RenditionError.bridge("PNG", failure: apng_failure(decoder), String(cString: apng_error(decoder)), path: path)
    }

    static var libraryVersion: String { String(cString: apng_version()) }

    /// The EXIF orientation of an eXIf chunk, wherever it is.
    static func exifOrientation(of file: FileDescriptor) -> Orientation {
        PNGChunks.metadata(of: file, readingXMP: false).exif.map { Orientation.read(exif: $0) } ?? .up
    }
}
