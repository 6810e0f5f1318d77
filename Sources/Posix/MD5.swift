import Glibc

/// MD5 (RFC 1321), fed in pieces: names a Freedesktop thumbnail after its file's URI (the
/// Thumbnail Managing Standard's choice) and makes a photo's content id (ExifTool's
/// `ImageDataHash` uses it too). Not for anything that needs a secure hash.
public struct MD5 {
    private var state: (UInt32, UInt32, UInt32, UInt32) = (0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476)
    /// Bytes of a block not yet processed (fewer than 64).
    private var pending: [UInt8] = []
    private var length: UInt64 = 0

    public init() { pending.reserveCapacity(64) }

    /// The digest of `message` as 32 lower-case hex digits (what GLib's `g_compute_checksum_for_string` prints).
    public static func hex(_ message: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        let text = digest(message).flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0F)]] }
        return String(decoding: text, as: UTF8.self)
    }

    /// The 16-byte digest of `message`.
    public static func digest(_ message: [UInt8]) -> [UInt8] {
        var md5 = MD5()
        md5.update(message)
        return md5.finish()
    }

    public mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        length &+= UInt64(bytes.count)
        var rest = bytes[...]
        if !pending.isEmpty {
            let taken = rest.prefix(64 - pending.count)
            pending += taken
            rest = rest.dropFirst(taken.count)
            guard pending.count == 64 else { return }
            pending.withUnsafeBytes { compress(UnsafeRawBufferPointer(rebasing: $0[...])) }
            pending.removeAll(keepingCapacity: true)
        }
        while rest.count >= 64 {
            compress(UnsafeRawBufferPointer(rebasing: rest.prefix(64)))
            rest = rest.dropFirst(64)
        }
        pending += rest
    }

    /// The 16-byte digest of everything given (the value is spent).
    public consuming func finish() -> [UInt8] {
        let bitLength = length &* 8
        var tail: [UInt8] = [0x80] + [UInt8](repeating: 0, count: (119 - pending.count) % 64)
        tail += (0..<8).map { UInt8(truncatingIfNeeded: bitLength >> (8 * UInt64($0))) }
        update(tail)
        return [state.0, state.1, state.2, state.3].flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> (8 * UInt32($0))) } }
    }

    /// One 64-byte block: RFC 1321's four rounds of 16 steps, each round a loop of its own (a
    /// step's function and message word chosen by round, not by a switch in every step).
    private mutating func compress(_ block: UnsafeRawBufferPointer) {
        var (a, b, c, d) = state
        Self.constants.withUnsafeBufferPointer { k in
            Self.shifts.withUnsafeBufferPointer { r in
                withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 16) { m in
                    for i in 0..<16 { m[i] = UInt32(littleEndian: block.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self)) }
                    @inline(__always) func step(_ f: UInt32, _ i: Int, _ g: Int) {
                        let sum = f &+ a &+ k[i] &+ m[g]
                        (a, d, c) = (d, c, b)
                        b = b &+ (sum << r[i] | sum >> (32 - r[i]))
                    }
                    for i in 0..<16 { step((b & c) | (~b & d), i, i) }
                    for i in 16..<32 { step((d & b) | (~d & c), i, (5 * i + 1) & 15) }
                    for i in 32..<48 { step(b ^ c ^ d, i, (3 * i + 5) & 15) }
                    for i in 48..<64 { step(c ^ (b | ~d), i, (7 * i) & 15) }
                }
            }
        }
        state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d)
    }

    private static let shifts: [UInt32] = [7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22,
                                           5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20,
                                           4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23,
                                           6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21]

    /// floor(|sin(i + 1)| · 2³²), as RFC 1321 tabulates them.
    private static let constants: [UInt32] = (0..<64).map { i in
        UInt32(truncatingIfNeeded: Int64((abs(sin(Double(i + 1))) * 4294967296.0).rounded(.down)))
    }
}
