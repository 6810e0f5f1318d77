/// 64-bit FNV-1a: small, fast and the same on every machine and every run (Swift's `Hasher` is
/// seeded per process), which stable inode numbers, shortened names and cache file names need.
public enum FNV1a {
    public static func hash(_ bytes: [UInt8]) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { h = (h ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return h
    }
}
