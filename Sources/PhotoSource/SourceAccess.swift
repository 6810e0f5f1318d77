import Posix

/// Whether a user could reach a photo or folder of SOURCE themselves: search permission on every
/// folder from `/` down (SOURCE's own ancestors included), then read permission on the photo,
/// with POSIX ACLs honoured. Another user is shown exactly what SOURCE lets them read, whatever
/// path of the mount leads to it. What it reads of the disk is kept a couple of seconds, so a
/// listing checks its entries cheaply and a chmod anywhere on the way counts within that time.
public final class SourceAccess: Sendable {
    public let root: FilePath
    private let statuses = Locked<[FilePath: Remembered<Permissions?>]>([:])
    private let realPaths = Locked<[FilePath: Remembered<FilePath?>]>([:])
    static let freshness = Duration.seconds(2)
    /// Entries kept at most; all are dropped past it (a walk of a big library passes through).
    static let capacity = 8192

    public init(root: FilePath) { self.root = root }

    /// What the kernel checks of one file or folder.
    struct Permissions: Sendable {
        var status: FileStatus
        var acl: AccessControlList?
    }

    struct Remembered<Value: Sendable>: Sendable {
        var value: Value
        var at: ContinuousClock.Instant
    }

    /// Whether `caller` could open the photo at `relative` (below SOURCE) for reading.
    public func mayRead(photoAt relative: FilePath, by caller: Credentials) -> Bool {
        caller.isRoot || may(.read, relative, caller)
    }

    /// Whether `caller` could list the folder at `relative` (below SOURCE; empty: SOURCE itself).
    public func mayList(folderAt relative: FilePath, by caller: Credentials) -> Bool {
        caller.isRoot || may([.read, .search], relative, caller)
    }

    private func may(_ access: Credentials.Access, _ relative: FilePath, _ caller: Credentials) -> Bool {
        guard let real = realPath(root.appending(relative)) else { return false }
        var prefix = FilePath("/")
        for component in real.components {
            guard let folder = permissions(prefix), caller.may(.search, status: folder.status, acl: folder.acl) else { return false }
            prefix = prefix.appending(component)
        }
        guard let target = permissions(prefix) else { return false }
        return caller.may(access, status: target.status, acl: target.acl)
    }

    private func realPath(_ path: FilePath) -> FilePath? {
        remembered(path, in: realPaths) { try? path.resolved() }
    }

    private func permissions(_ path: FilePath) -> Permissions? {
        remembered(path, in: statuses) {
            (try? FileStatus(path: path)).map { Permissions(status: $0, acl: AccessControlList.of(path)) }
        }
    }

    private func remembered<Value: Sendable>(_ key: FilePath, in table: Locked<[FilePath: Remembered<Value>]>,
                                             read: () -> Value) -> Value {
        let now = ContinuousClock.now
        if let known = table.withLock({ $0[key] }), now - known.at < Self.freshness { return known.value }
        let value = read()
        table.withLock { entries in
            if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
            entries[key] = Remembered(value: value, at: now)
        }
        return value
    }
}
