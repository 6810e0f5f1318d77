import Posix

/// The boxes of an ISO base media file (MP4, QuickTime, CR3, HEIC, AVIF), walked by their headers
/// without reading their content.
public enum ISOBaseMediaFile {
    public struct Box {
        public var type: String
        public var offset: Int64
        public var size: Int64
        /// The box's first 32 bytes (fewer at the end of the file).
        public var header: [UInt8]

        /// The header's length: 8, or 16 with a 64-bit size.
        public var headerLength: Int

        /// Where its content starts (containers such as moov, trak and mdia hold only boxes).
        public var contentOffset: Int64 { offset + Int64(headerLength) }
    }

    /// Calls `visit` with each top-level box (ftyp, meta or moov, a few uuid, free, mdat), at most 64.
    public static func walkTopLevelBoxes(of file: FileDescriptor, _ visit: (Box) -> Void) {
        guard let size = try? file.status().size else { return }
        walkBoxes(of: file, from: 0, to: size, visit)
    }

    /// Calls `visit` with each box from `start` up to `end` (the content of one box), at most 64.
    static func walkBoxes(of file: FileDescriptor, from start: Int64, to end: Int64, _ visit: (Box) -> Void) {
        var offset = start
        for _ in 0..<64 {
            guard offset + 8 <= end, let header = try? file.read(upTo: 32, at: offset),
                  let box = ISOBoxHeader(header, room: end - offset) else { break }
            visit(Box(type: box.type, offset: offset, size: box.size, header: header, headerLength: box.length))
            offset += box.size
        }
    }

    /// The whole of `box`, header included, unless it is over `limit` bytes.
    public static func read(_ box: Box, from file: FileDescriptor, limit: Int) -> [UInt8]? {
        guard box.size <= Int64(limit), let bytes = try? file.read(upTo: Int(box.size), at: box.offset), bytes.count == Int(box.size) else { return nil }
        return bytes
    }

    /// The handler types of the movie's tracks (`vide`, `soun`, `meta`, ...) from each
    /// moov/trak/mdia/hdlr box; nil when the file has no movie box that can be walked (a
    /// compressed one, a damaged one): then only opening it tells.
    public static func trackHandlers(of file: FileDescriptor) -> [String]? {
        var moov: Box?
        walkTopLevelBoxes(of: file) { box in if box.type == "moov", moov == nil { moov = box } }
        guard let moov else { return nil }
        var handlers: [String] = []
        func children(of box: Box, _ visit: (Box) -> Void) { walkBoxes(of: file, from: box.contentOffset, to: box.offset + box.size, visit) }
        children(of: moov) { trak in
            guard trak.type == "trak" else { return }
            children(of: trak) { mdia in
                guard mdia.type == "mdia" else { return }
                children(of: mdia) { hdlr in
                    // size, type, version and flags, pre_defined, then handler_type.
                    if hdlr.type == "hdlr", hdlr.header.count >= 20 { handlers.append(String(decoding: hdlr.header[16..<20], as: UTF8.self)) }
                }
            }
        }
        return handlers
    }
}
