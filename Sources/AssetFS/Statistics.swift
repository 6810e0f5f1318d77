import Synchronization

/// Counters since this mount started, reported through `user.assetfs.stats`.
public final class Statistics: Sendable {
    public let renders = Atomic<Int>(0)
    public let renderFailures = Atomic<Int>(0)
    /// Photos found broken (each counted once, whatever the number of its renditions).
    public let brokenPhotos = Atomic<Int>(0)
    public let cacheHits = Atomic<Int>(0)
    public let cacheMisses = Atomic<Int>(0)
    /// Folders of SOURCE read since the mount started: a change costs what it touches.
    public let foldersRead = Atomic<Int>(0)

    public init() {}

    static func bump(_ counter: borrowing Atomic<Int>) { counter.wrappingAdd(1, ordering: .relaxed) }
}
