import Foundation

/// One pool of memory shared by every render in the process, for the whole-image coefficient
/// buffers that progressive and multi-scan JPEGs need (libjpeg's `max_memory_to_use` cannot
/// bound those: it only makes them fail). A request larger than the pool fails at once; one
/// that fits waits, when asked to, until other renders give memory back.
public final class MemoryBudget: @unchecked Sendable {
    public let capacity: Int
    private var available: Int
    private let condition = NSCondition()

    public init(bytes: Int) {
        capacity = bytes
        available = bytes
    }

    /// What a render holds; give it back with `release()`.
    public struct Reservation: Sendable {
        let bytes: Int
    }

    public enum Failure: Error { case exceedsCapacity, busy }

    public func reserve(_ bytes: Int, wait: Bool) throws(Failure) -> Reservation {
        guard bytes <= capacity else { throw .exceedsCapacity }
        condition.lock()
        defer { condition.unlock() }
        while available < bytes {
            guard wait else { throw .busy }
            condition.wait()
        }
        available -= bytes
        return Reservation(bytes: bytes)
    }

    public func release(_ reservation: Reservation) {
        condition.lock()
        available += reservation.bytes
        condition.broadcast()
        condition.unlock()
    }

    /// Memory not held by any render right now.
    public var unused: Int {
        condition.lock()
        defer { condition.unlock() }
        return available
    }
}
