import Foundation
import Posix

/// One pool of memory shared by every render in the process, for whole-image buffers (the
/// coefficients of progressive JPEGs, which libjpeg's `max_memory_to_use` cannot bound; HEIF and
/// RAW decodes). The pool is a throttle, not a verdict: a render that fits waits, when asked to,
/// until others give memory back; one that needs more than the whole pool waits until it can run
/// alone, holding all of it, and later requests queue behind it so it is not starved. Only a
/// request over `ceiling` (what the machine cannot spare) is refused.
public final class MemoryBudget: Sendable {
    public let capacity: Int
    /// The most one render may ask for.
    public let ceiling: Int
    private let pool: Locked<Pool>

    private struct Pool {
        var available: Int
        /// Renders waiting to hold all of it: later ones queue behind them.
        var waitingToRunAlone = 0
    }

    /// Half of the machine's memory: a decode past it would push everything else out, or be killed.
    public static let halfOfPhysicalMemory = Int(clamping: ProcessInfo.processInfo.physicalMemory / 2)

    public init(bytes: Int, ceiling: Int = MemoryBudget.halfOfPhysicalMemory) {
        capacity = bytes
        self.ceiling = max(bytes, ceiling)
        pool = Locked(Pool(available: bytes))
    }

    /// What a render holds. Not copyable, so it is given back exactly once: when its holder
    /// lets it go (the end of the scope that reserved it, however that scope is left), or
    /// earlier by `release()`.
    public struct Reservation: ~Copyable, Sendable {
        let bytes: Int
        let budget: MemoryBudget

        deinit { budget.giveBack(bytes) }

        /// Gives the memory back now.
        public consuming func release() {}
    }

    public enum Failure: Error { case overCeiling, busy }

    /// Reserves `bytes` (all of the pool when it is more). `wait`: block until it is free; else
    /// fail with `.busy` when other renders hold what is needed.
    public func reserve(_ bytes: Int, wait: Bool) throws(Failure) -> Reservation {
        guard bytes <= ceiling else { throw .overCeiling }
        let held = min(bytes, capacity)
        let runsAlone = held == capacity
        func fits(_ pool: Pool) -> Bool {
            pool.available >= held && (runsAlone || pool.waitingToRunAlone == 0)
        }
        func take(_ pool: inout Pool) -> Reservation {
            pool.available -= held
            return Reservation(bytes: held, budget: self)
        }
        guard wait else {
            return try pool.withLock { pool throws(Failure) in
                guard fits(pool) else { throw .busy }
                return take(&pool)
            }
        }
        if runsAlone { pool.withLock { $0.waitingToRunAlone += 1 } }
        return pool.withLock(when: fits) { pool in
            if runsAlone { pool.waitingToRunAlone -= 1 }
            return take(&pool)
        }
    }

    private func giveBack(_ bytes: Int) {
        pool.withLock { $0.available += bytes }
    }

    /// Memory not held by any render right now.
    public var unused: Int {
        pool.withLock { $0.available }
    }
}
