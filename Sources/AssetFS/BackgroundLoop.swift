import Catalog
import MountModel
import Posix

/// Background work run on a serial lane of lowered priority each time it is poked (after every
/// synchronize): reading the properties of photos whose date is not known yet. Pokes while a
/// pass runs make one more pass, never a queue of them. It also sends the invalidations that
/// request handlers produce (they must not send them themselves: libfuse could deadlock).
/// Nothing runs before `start` (after the daemon has forked); `stop` waits for the pass under way.
final class BackgroundLoop: Sendable {
    typealias Body = @Sendable (_ shouldContinue: @escaping @Sendable () -> Bool, _ invalidate: @escaping @Sendable ([Invalidation]) -> Void) -> Void

    private let lane: Lane
    private let state = Locked(State())

    private struct State {
        var body: Body?
        var invalidate: @Sendable ([Invalidation]) -> Void = { _ in }
        var passWanted = false
        var queued: [Invalidation] = []
        /// Whether a turn (send what is queued, then a pass if wanted) is queued on the lane.
        var turnQueued = false
        var stopping = false

        /// Marks a turn queued; true when one has to be submitted.
        mutating func needsTurn() -> Bool {
            guard body != nil, !stopping, !turnQueued else { return false }
            turnQueued = true
            return true
        }
    }

    init(scheduler: Scheduler) {
        lane = scheduler.lane(width: 1, priority: .upkeep, threads: .lowered, leftovers: .cancel)
    }

    /// Starts with its work and where invalidations go, and runs a first pass.
    func start(_ body: @escaping Body, invalidate: @escaping @Sendable ([Invalidation]) -> Void) {
        let queue = state.withLock { state in
            guard state.body == nil, !state.stopping else { return false }
            state.body = body
            state.invalidate = invalidate
            state.passWanted = true
            return state.needsTurn()
        }
        if queue { queueTurn() }
    }

    /// Asks for another pass (a no-op until started).
    func poke() {
        if state.withLock({ state in
            state.passWanted = true
            return state.needsTurn()
        }) { queueTurn() }
    }

    /// Invalidations to send from the lane (dropped when it was never started).
    func send(_ invalidations: [Invalidation]) {
        guard !invalidations.isEmpty else { return }
        if state.withLock({ state in
            guard state.body != nil else { return false }
            state.queued += invalidations
            return state.needsTurn()
        }) { queueTurn() }
    }

    var isStopping: Bool { state.withLock { $0.stopping } }

    /// Whether a poke came since the pass under way began: another pass is queued, and work that
    /// can wait (hashing) should end this one so that it runs now.
    var isPassWanted: Bool { state.withLock { $0.passWanted } }

    /// Ends the pass under way at its next photo and waits for it; what is queued is dropped.
    func stop() {
        state.withLock { $0.stopping = true }
        lane.close()
    }

    private func queueTurn() { lane.submit(Scheduler.Job(run: { [self] in turn() })) }

    private func turn() {
        let taken = state.withLock { state -> (work: Body?, toSend: [Invalidation], invalidate: @Sendable ([Invalidation]) -> Void)? in
            guard !state.stopping else { return nil }
            defer { state.passWanted = false; state.queued = []; state.turnQueued = false }
            return (state.passWanted ? state.body : nil, state.queued, state.invalidate)
        }
        guard case let (work, toSend, invalidate)? = taken else { return }
        if !toSend.isEmpty { invalidate(toSend) }
        work?({ [self] in !isStopping }, invalidate)
    }
}
