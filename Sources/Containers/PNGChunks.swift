import Posix

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
        FileChunks.walk(file, .png) { type, contentOffset, length in
            let content = { () -> [UInt8]? in
                guard length <= 1 << 20, let bytes = try? file.read(upTo: Int(length), at: contentOffset), bytes.count == Int(length) else { return nil }
                return bytes
            }
            if type == "eXIf", result.exif == nil {
                result.exif = content()
            } else if type == "iTXt", readingXMP, result.xmp == nil, let text = content(), text.starts(with: xmpKeyword) {
                result.xmp = xmpText(text)
            }
            return result.exif == nil || (result.xmp == nil && readingXMP)
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
