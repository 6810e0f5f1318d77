import PhotoSource
import Posix

/// The top-level boxes of an ISO base media file (CR3, HEIC, AVIF), walked by their headers
/// without reading their content.
public enum ISOBaseMediaFile {
    public struct Box {
        public var type: String
        public var offset: Int64
        public var size: Int64
        /// The box's first 32 bytes (fewer at the end of the file).
        public var header: [UInt8]
    }

    /// Calls `visit` with each top-level box (ftyp, meta or moov, a few uuid, free, mdat), at most 64.
    public static func walkTopLevelBoxes(of file: FileDescriptor, _ visit: (Box) -> Void) {
        guard let size = try? file.status().size else { return }
        var offset: Int64 = 0
        for _ in 0..<64 {
            guard offset + 8 <= size, let header = try? file.read(upTo: 32, at: offset), header.count >= 8 else { break }
            var boxSize = Int64(ByteOrder.bigEndian.integer(header, at: 0, count: 4))
            if boxSize == 1, header.count >= 16 { boxSize = Int64(ByteOrder.bigEndian.integer(header, at: 8, count: 8)) }
            if boxSize == 0 { boxSize = size - offset }
            guard boxSize >= 8, boxSize <= size - offset else { break }
            visit(Box(type: String(decoding: header[4..<8], as: UTF8.self), offset: offset, size: boxSize, header: header))
            offset += boxSize
        }
    }

    /// The whole of `box`, header included, unless it is over `limit` bytes.
    public static func read(_ box: Box, from file: FileDescriptor, limit: Int) -> [UInt8]? {
        guard box.size <= Int64(limit), let bytes = try? file.read(upTo: Int(box.size), at: box.offset), bytes.count == Int(box.size) else { return nil }
        return bytes
    }
}
