import Glibc

/// Who asks: the user, group and supplementary groups of a process, and the kernel's rule for
/// what they may do to a file (permission bits, or a POSIX ACL where the file has one).
public struct Credentials: Sendable, Equatable {
    public var userID: UInt32
    public var groupID: UInt32
    public var groups: [UInt32]

    public init(userID: UInt32, groupID: UInt32, groups: [UInt32] = []) {
        self.userID = userID
        self.groupID = groupID
        self.groups = groups
    }

    /// Read or search (execute): the two rights reading a photo takes.
    public struct Access: OptionSet, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        public static let read = Access(rawValue: 4)
        public static let search = Access(rawValue: 1)
    }

    public var isRoot: Bool { userID == 0 }

    /// Root's, or those of the user this process runs as: they can read anything this process
    /// reads, so nothing it serves needs checking against them. (Asked on every request: the
    /// process's user is read once, as it never changes.)
    public var reachesAllThisProcessReaches: Bool { isRoot || userID == Self.processUserID }

    private static let processUserID = geteuid()

    private func isMember(of group: UInt32) -> Bool { group == groupID || groups.contains(group) }

    /// Whether these credentials get `access` to a file of `status` (and `acl`, its access ACL):
    /// acl(5)'s access check algorithm; without an ACL, the owner, group and other bits.
    /// Root gets read and search of anything, as CAP_DAC_OVERRIDE gives.
    public func may(_ access: Access, status: FileStatus, acl: AccessControlList? = nil) -> Bool {
        if isRoot { return true }
        let wanted = access.rawValue
        let mode = status.permissions
        if userID == status.userID { return (mode >> 6) & wanted == wanted }
        guard let acl else {
            return ((isMember(of: status.groupID) ? mode >> 3 : mode) & wanted) == wanted
        }
        let mask = acl.mask ?? 0o7
        if let named = acl.users[userID] { return named & mask & wanted == wanted }
        // Any matching group entry that grants it grants it; matching entries that all fall short deny.
        var groupMatched = false
        for (group, permissions) in [(status.groupID, acl.owningGroup)] + acl.groups.map({ ($0.key, $0.value) }) where isMember(of: group) {
            groupMatched = true
            if permissions & mask & wanted == wanted { return true }
        }
        return groupMatched ? false : acl.other & wanted == wanted
    }
}
