/// An asset's id, made from its picture's data (`ContentID.read`, in PhotoProperties): 128 bits,
/// shown as 26 lower-case letters and digits (RFC 4648 base32, unpadded), which a file name, a URL
/// and a shell word take as they are. Two files of the same picture share it.
public struct ContentID: Hashable, Sendable, CustomStringConvertible {
    /// The 16 bytes the catalog stores.
    public let digest: [UInt8]

    public init?(digest: [UInt8]) {
        guard digest.count == 16 else { return nil }
        self.digest = digest
    }

    static let alphabet = Array("abcdefghijklmnopqrstuvwxyz234567".utf8)
    /// 26 letters of 5 bits: the digest's 128 bits, then 2 zero bits.
    public static let textLength = 26

    /// The id `text` shows, nil unless it is one (26 of the letters, its last 2 bits zero).
    public init?(text: some Collection<UInt8>) {
        guard text.count == Self.textLength else { return nil }
        var bits: UInt64 = 0, count = 0, digest: [UInt8] = []
        for letter in text {
            guard let value = Self.alphabet.firstIndex(of: letter) else { return nil }
            bits = bits << 5 | UInt64(value)
            count += 5
            if count >= 8 {
                count -= 8
                digest.append(UInt8(truncatingIfNeeded: bits >> UInt64(count)))
            }
        }
        guard bits & (1 << UInt64(count) - 1) == 0 else { return nil }
        self.digest = digest
    }

    public var description: String {
        var bits: UInt64 = 0, count = 0, text: [UInt8] = []
        for byte in digest + [0] {
            bits = bits << 8 | UInt64(byte)
            count += 8
            while count >= 5, text.count < Self.textLength {
                count -= 5
                text.append(Self.alphabet[Int(bits >> UInt64(count) & 31)])
            }
        }
        return String(decoding: text, as: UTF8.self)
    }
}
