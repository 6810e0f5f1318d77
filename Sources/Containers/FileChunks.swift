import Posix

/// The one walk over a file of chunks that each begin with a type and a length: PNG's (big-endian
/// length, then type; 4 bytes of CRC after the content) and RIFF's, WebP's (type, then
/// little-endian length; content padded to an even length). Reads only the 8-byte headers.
public enum FileChunks {
    public enum Dialect: Sendable {
        case png, riff

        /// Where the first chunk starts: after PNG's signature, after RIFF's "RIFF", size, "WEBP".
        var firstChunk: Int64 { self == .png ? 8 : 12 }
    }

    /// Calls `visit` with each chunk's type, where its content starts and its length, from the
    /// first until PNG's IEND, the end of the file (or of the RIFF), or `visit` returns false; at
    /// most 100,000 chunks.
    public static func walk(_ file: FileDescriptor, _ dialect: Dialect,
                            _ visit: (_ type: String, _ contentOffset: Int64, _ length: Int64) -> Bool) {
        var end = Int64.max
        if dialect == .riff {
            guard let riff = try? file.read(upTo: 12, at: 0), riff.count == 12 else { return }
            end = Int64(ByteOrder.littleEndian.integer(riff, at: 4, count: 4)) + 8
        }
        var offset = dialect.firstChunk
        for _ in 0..<100_000 {
            guard offset + 8 <= end, let header = try? file.read(upTo: 8, at: offset), header.count == 8 else { return }
            let (type, length): (String, Int64) = dialect == .png
                ? (String(decoding: header[4..<8], as: UTF8.self), Int64(ByteOrder.bigEndian.integer(header, at: 0, count: 4)))
                : (String(decoding: header[0..<4], as: UTF8.self), Int64(ByteOrder.littleEndian.integer(header, at: 4, count: 4)))
            if dialect == .png && type == "IEND" { return }
            guard visit(type, offset + 8, length) else { return }
            offset += 8 + length + (dialect == .png ? 4 : length & 1)
        }
    }
}
