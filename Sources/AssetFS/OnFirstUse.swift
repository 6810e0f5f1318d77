import Foundation
import Posix
import RenditionCache

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

/// The rendition cache of one process, opened on first use. While it cannot be opened (a full
/// disk, a folder that may not be written), renditions stay in memory and opening is tried again
/// at most every `retryInterval` seconds, so that the cache is back once it can be: told once in
/// the log when it fails, and once when it opens.
public final class CacheConnection: Sendable {
    private let name: String
    private let open: @Sendable () throws(DatabaseError) -> RenditionStore?
    private let state = Locked<(store: RenditionStore?, lastTry: Double?, failing: Bool)>((nil, nil, false))
    static let retryInterval = 5.0

    /// `name`: the cache as the log names it.
    public init(name: String = "the cache", _ open: @escaping @Sendable () throws(DatabaseError) -> RenditionStore?) {
        self.name = name
        self.open = open
    }

    /// No cache at all.
    public static var none: CacheConnection { CacheConnection { nil } }

    /// The store, or nil while it cannot be opened.
    public var store: RenditionStore? {
        state.withLock { state in
            if let store = state.store { return store }
            let now = Date().timeIntervalSince1970
            if let last = state.lastTry, now - last < Self.retryInterval { return nil }
            state.lastTry = now
            do throws(DatabaseError) {
                state.store = try open()
                if state.failing, state.store != nil { Log.info("\(name): the cache opened; renditions are stored again") }
            } catch {
                if !state.failing {
                    Log.warning("\(name): cannot open the cache (\(error)); renditions are made in memory meanwhile, and it is tried again every \(Int(Self.retryInterval)) s")
                }
                state.failing = true
            }
            return state.store
        }
    }

    public var isEnabled: Bool { store != nil }
}
