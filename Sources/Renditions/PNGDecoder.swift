internal import CPNG
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
        throw RenditionError.decoder("PNG", String(cString: apng_error(decoder)), path: path)
    }

    static var libraryVersion: String { String(cString: apng_version()) }

    /// The EXIF orientation of an eXIf chunk, wherever it is.
    static func exifOrientation(of file: FileDescriptor) -> Orientation {
        PNGChunks.metadata(of: file, readingXMP: false).exif.map { Orientation.read(exif: $0) } ?? .up
    }
}

/// Chunks of a PNG read where they lie, without libpng.
public enum PNGChunks {
    /// The metadata chunks, wherever they are (before or after the image data).
    public struct Metadata {
        /// The eXIf chunk: an EXIF block (a TIFF structure).
        public var exif: [UInt8]?
        /// The XMP packet of the iTXt chunk keyed `XML:com.adobe.xmp` (uncompressed, as XMP
        /// writers store it).
        public var xmp: [UInt8]?
    }

    static let xmpKeyword = Array("XML:com.adobe.xmp".utf8) + [0]

    /// The chunk list walked once with reads of 8-byte headers only, up to IEND, or only until
    /// the eXIf chunk when `readingXMP` is false (the renderer wants the orientation alone); a
    /// chunk over 1 MiB is not read.
    public static func metadata(of file: FileDescriptor, readingXMP: Bool = true) -> Metadata {
        var result = Metadata()
        var offset: Int64 = 8
        for _ in 0..<100_000 {
            if result.exif != nil && (result.xmp != nil || !readingXMP) { break }
            guard let header = try? file.read(upTo: 8, at: offset), header.count == 8 else { break }
            let length = Int64(ByteOrder.bigEndian.integer(header, at: 0, count: 4))
            let type = String(decoding: header[4..<8], as: UTF8.self)
            if type == "IEND" { break }
            let content = { () -> [UInt8]? in
                guard length <= 1 << 20, let bytes = try? file.read(upTo: Int(length), at: offset + 8), bytes.count == Int(length) else { return nil }
                return bytes
            }
            if type == "eXIf", result.exif == nil {
                result.exif = content()
            } else if type == "iTXt", readingXMP, result.xmp == nil, let text = content(), text.starts(with: xmpKeyword) {
                result.xmp = xmpText(text)
            }
            offset += 12 + length
        }
        return result
    }

    /// The text of an iTXt chunk: keyword, NUL, compression flag and method, language tag, NUL,
    /// translated keyword, NUL, then the text (nil when compressed).
    static func xmpText(_ chunk: [UInt8]) -> [UInt8]? {
        let flag = xmpKeyword.count
        guard chunk.count > flag + 2, chunk[flag] == 0, let language = chunk[(flag + 2)...].firstIndex(of: 0),
              let translated = chunk[(language + 1)...].firstIndex(of: 0) else { return nil }
        return Array(chunk[(translated + 1)...])
    }
}
