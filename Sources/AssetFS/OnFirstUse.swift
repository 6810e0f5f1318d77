import RenditionCache
import Posix

/// A value made on first use, once. A background mount first touches its SQLite files (the
/// rendition cache, the catalog) after it has forked: a connection must never cross `fork()`
/// (the child would believe it holds POSIX locks it never inherited, and corrupt the WAL under
/// `assetfs warm`).
public final class OnFirstUse<Value: Sendable>: Sendable {
    private let make: @Sendable () -> Value
    private let made = Locked<Value?>(nil)

    public init(_ make: @escaping @Sendable () -> Value) { self.make = make }

    public var value: Value {
        made.withLock { made in
            if let value = made { return value }
            let value = make()
            made = value
            return value
        }
    }
}

/// The rendition cache of one process; nil inside means renditions stay in memory.
public typealias CacheConnection = OnFirstUse<RenditionStore?>

extension OnFirstUse where Value == RenditionStore? {
    /// No cache at all.
    public static var none: CacheConnection { CacheConnection { nil } }
    public var store: RenditionStore? { value }
    public var isEnabled: Bool { value != nil }
}
