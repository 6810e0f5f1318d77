/// The order of a stored integer's bytes, and the one reader and writer of unsigned integers in
/// file bytes that every container walker uses: a TIFF structure says its order in its header;
/// ISO media boxes, PNG chunks and RAF headers are big-endian; RIFF (WebP) and GIF little-endian.
public enum ByteOrder: Sendable {
    case bigEndian, littleEndian

    /// The unsigned integer `bytes` store (up to 8 of them; one past `Int.max` comes out negative,
    /// as its bit pattern).
    @inlinable
    public func integer(_ bytes: some Collection<UInt8>) -> Int {
        var value: UInt64 = 0
        switch self {
        case .bigEndian:
            for byte in bytes { value = value << 8 | UInt64(byte) }
        case .littleEndian:
            for (shift, byte) in zip(stride(from: 0, to: 64, by: 8), bytes) { value |= UInt64(byte) << UInt64(shift) }
        }
        return Int(truncatingIfNeeded: value)
    }

    /// The integer in the `count` bytes `offset` bytes into `bytes` (fewer where they end).
    @inlinable
    public func integer(_ bytes: some Collection<UInt8>, at offset: Int, count: Int) -> Int {
        integer(bytes.dropFirst(offset).prefix(count))
    }

    /// `value` as `count` bytes in this order (the low bytes of its bit pattern).
    public func bytes(of value: Int, count: Int) -> [UInt8] {
        let shifts = (0..<count).map { 8 * $0 }
        return (self == .littleEndian ? shifts : shifts.reversed()).map { UInt8(truncatingIfNeeded: value >> $0) }
    }
}
