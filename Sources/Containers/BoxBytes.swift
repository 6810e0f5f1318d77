/// Big-endian numbers and child boxes of an ISO base media box's content, nil past its end.
public struct BoxBytes: Sendable {
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

    /// The boxes that follow one another from `offset` to the end (size 0: to the end; 1: a
    /// 64-bit size follows the type), their content without the header.
    public func children(from offset: Int) -> [(type: String, body: BoxBytes)] {
        var result: [(type: String, body: BoxBytes)] = [], at = offset
        while let size32 = number(at: at, size: 4), let type = fourCC(at: at + 4), result.count < 10_000 {
            var size = size32, header = 8
            if size == 1 {
                guard let large = number(at: at + 8, size: 8) else { break }
                (size, header) = (large, 16)
            } else if size == 0 {
                size = bytes.count - at
            }
            guard size >= header, let body = bytes(at: at + header, count: size - header) else { break }
            result.append((type, BoxBytes(body)))
            at += size
        }
        return result
    }
}
