import RenditionCache
import Synchronization

/// The rendition cache as one process uses it, opened on first use. A background mount first
/// touches it after it has forked: an SQLite connection must never cross `fork()` (the child
/// would believe it holds POSIX locks it never inherited, and corrupt the WAL under `warm`).
public final class CacheConnection: Sendable {
    private let opener: @Sendable () -> RenditionStore?
    private let opened = Mutex<RenditionStore??>(nil)

    /// `open` runs once, on first use; nil there means renditions stay in memory.
    public init(open: @escaping @Sendable () -> RenditionStore?) { opener = open }

    /// No cache at all.
    public static var none: CacheConnection { CacheConnection { nil } }

    public var store: RenditionStore? {
        opened.withLock { opened in
            if let store = opened { return store }
            let store = opener()
            opened = .some(store)
            return store
        }
    }

    public var isEnabled: Bool { store != nil }
}
