/// The one reading of an ISO base media box's header, shared by the walker of a file's boxes
/// (`ISOBaseMediaFile`) and of a box's content in memory (`ISOBoxContent`): a 32-bit size and the
/// type, then a 64-bit size when the 32-bit one is 1; a size of 0 runs to the enclosing box's end.
public struct ISOBoxHeader: Sendable, Equatable {
    public var type: String
    /// The whole box, header included.
    public var size: Int64
    /// The header's bytes: 8, or 16 with a 64-bit size.
    public var length: Int

    /// The header `bytes` begin with (16 of them when the size is 64-bit), of a box that has
    /// `room` bytes left in what encloses it; nil for a header cut short, or a size smaller
    /// than the header or past the room.
    public init?(_ bytes: some Collection<UInt8>, room: Int64) {
        let head = Array(bytes.prefix(16))
        guard head.count >= 8, room >= 8 else { return nil }
        var size = Int64(ByteOrder.bigEndian.integer(head[0..<4])), length = 8
        if size == 1 {
            guard head.count >= 16 else { return nil }
            (size, length) = (Int64(ByteOrder.bigEndian.integer(head[8..<16])), 16)
        } else if size == 0 {
            size = room
        }
        guard size >= Int64(length), size <= room else { return nil }
        (type, self.size, self.length) = (String(decoding: head[4..<8], as: UTF8.self), size, length)
    }
}

/// A box's content in memory: big-endian numbers and child boxes, nil past its end.
public struct ISOBoxContent: Sendable {
    public let bytes: ArraySlice<UInt8>

    public init(_ bytes: ArraySlice<UInt8>) { self.bytes = bytes }

    /// A full box's version and flags (its first 4 bytes).
    public var version: Int { number(at: 0, size: 1) ?? -1 }
    public var flags: Int { number(at: 1, size: 3) ?? 0 }

    /// An unsigned number of `size` bytes (0 to 8; 0 is 0, as for an absent iloc field).
    public func number(at offset: Int, size: Int) -> Int? {
        guard size <= 8, let slice = bytes(at: offset, count: size) else { return nil }
        let value = ByteOrder.bigEndian.integer(slice)
        return value >= 0 ? value : nil
    }

    public func fourCC(at offset: Int) -> String? { bytes(at: offset, count: 4).map { String(decoding: $0, as: UTF8.self) } }

    public func bytes(at offset: Int, count: Int) -> ArraySlice<UInt8>? {
        guard offset >= 0, count >= 0, count <= bytes.count, offset <= bytes.count - count else { return nil }
        return bytes[(bytes.startIndex + offset)..<(bytes.startIndex + offset + count)]
    }

    /// The boxes that follow one another from `offset` to the end (at most 10,000), their
    /// content without the header; the walk stops at the first header that does not fit.
    public func children(from offset: Int) -> [(type: String, body: ISOBoxContent)] {
        var result: [(type: String, body: ISOBoxContent)] = [], at = offset
        while result.count < 10_000, at >= 0, at < bytes.count,
              let header = ISOBoxHeader(bytes.dropFirst(at), room: Int64(bytes.count - at)),
              let body = bytes(at: at + header.length, count: Int(header.size) - header.length) {
            result.append((header.type, ISOBoxContent(body)))
            at += Int(header.size)
        }
        return result
    }
}
