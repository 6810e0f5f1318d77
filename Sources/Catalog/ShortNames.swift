import Posix

/// Every name in the mount fits in 255 bytes, the NAME_MAX of ordinary disks: a longer one (deep
/// folders joined with `／`) would make `cp -a` or `rsync` out of the mount fail with "File name
/// too long", and the kernel would not even look it up.
extension Naming {
    public static let maxNameBytes = 255
    public static let ellipsis: [UInt8] = [0xE2, 0x80, 0xA6]  // U+2026, where a long name was cut

    /// `name` itself if it fits in `limit` bytes; else `…`, 8 hex digits of the whole name's
    /// FNV-1a hash (so two long names with one ending stay apart), a space and as much of the
    /// end of `name` (its most specific part) as fits. The same name always gives the same result.
    public static func fitted(_ name: [UInt8], limit: Int = maxNameBytes) -> [UInt8] {
        guard name.count > limit else { return name }
        let hash = String(FNV1a.hash(name) >> 32, radix: 16)
        let marker = ellipsis + Array(String(repeating: "0", count: 8 - hash.count).utf8) + Array(hash.utf8) + [UInt8(ascii: " ")]
        var start = name.count - (limit - marker.count)
        // Never begin inside a UTF-8 sequence: skip its continuation bytes (at most 3). In a name
        // that is not UTF-8 this drops at most 3 stray bytes more than needed.
        var skipped = 0
        while skipped < 3, start < name.count, name[start] & 0xC0 == 0x80 {
            start += 1
            skipped += 1
        }
        return marker + name[start...]
    }

}
