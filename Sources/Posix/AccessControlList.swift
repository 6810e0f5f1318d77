/// A file's POSIX access ACL, as Linux stores it in the `system.posix_acl_access` attribute:
/// a version (2) then entries of tag (16 bits), permissions (16 bits) and id (32 bits), little-endian.
public struct AccessControlList: Sendable, Equatable {
    public var owningGroup: UInt32 = 0
    public var other: UInt32 = 0
    public var mask: UInt32?
    public var users: [UInt32: UInt32] = [:]
    public var groups: [UInt32: UInt32] = [:]

    public init() {}

    /// Parses the attribute's value; nil when it is not a version 2 ACL.
    public init?(attribute bytes: [UInt8]) {
        func word(_ at: Int, _ count: Int) -> UInt32 {
            (0..<count).reduce(0) { $0 | UInt32(bytes[at + $1]) << (8 * $1) }
        }
        guard bytes.count >= 4, (bytes.count - 4) % 8 == 0, word(0, 4) == 2 else { return nil }
        for start in stride(from: 4, to: bytes.count, by: 8) {
            let permissions = word(start + 2, 2) & 0o7, id = word(start + 4, 4)
            switch word(start, 2) {
            case 0x01: break                      // ACL_USER_OBJ: the owner's bits are the mode's
            case 0x02: users[id] = permissions    // ACL_USER
            case 0x04: owningGroup = permissions  // ACL_GROUP_OBJ
            case 0x08: groups[id] = permissions   // ACL_GROUP
            case 0x10: mask = permissions         // ACL_MASK
            case 0x20: other = permissions        // ACL_OTHER
            default: return nil
            }
        }
    }

    /// The access ACL of `path`, nil when it has none (or the filesystem keeps none).
    public static func of(_ path: FilePath) -> AccessControlList? {
        guard let value = try? ExtendedAttributes.value(of: "system.posix_acl_access", at: path) else { return nil }
        return AccessControlList(attribute: value)
    }
}
