import Foundation
import Posix

/// The one owner of a mount's worker threads: renders, the cache's writes, a scan's reads and
/// catalog writes, the properties read in the background. Work is queued on lanes (as on
/// libdispatch's queues over its shared pool): a lane runs at most `width` of its jobs at once, so
/// a serial lane (width 1) runs them one at a time in order, and renders never take more threads
/// than there are cores. A free thread takes the most urgent job any lane may start; a queued job
/// can be raised to a more urgent priority. Threads start on first use (after the daemon has
/// forked). Background work runs on threads of its own at a lowered priority: an unprivileged
/// thread cannot raise its priority back, so those threads never take other work.
final class Scheduler: Sendable {
    struct Job: Sendable {
        var run: @Sendable () -> Void
        /// Called instead of `run` when the lane closes first and drops what it has queued.
        var cancel: @Sendable () -> Void = {}
    }

    /// The threads a lane's jobs run on.
    enum Threads: Sendable, CaseIterable { case normal, lowered }

    /// What closing a lane does with the jobs it has queued: cancels them, or runs them first.
    enum Leftovers: Sendable { case cancel, run }

    private let name: String
    private let counts: [Threads: Int]
    private let state = Locked(State())

    private struct State {
        var lanes: [Int: LaneState] = [:]
        var nextLane = 0
        var nextSequence: UInt64 = 0
        var started: Set<Threads> = []
        /// Threads in their loop.
        var live = 0
        /// Set by `shutdown`: lanes made from then on are closed from the start.
        var closingLanes = false
        /// Set once every lane is closed: idle threads end.
        var stopping = false

        func hasRunnable(on threads: Threads) -> Bool {
            lanes.values.contains { $0.threads == threads && $0.mayStart }
        }

        /// The most urgent job a lane on `threads` may start (nil only when stopping, and the thread ends).
        mutating func next(on threads: Threads) -> (lane: Int, job: Job)? {
            let candidates = lanes.filter { $0.value.threads == threads && $0.value.mayStart }
            guard let lane = candidates.min(by: { Self.precedes($0.value.queue.first!, $1.value.queue.first!) })?.key else {
                live -= 1
                return nil
            }
            lanes[lane]!.running += 1
            return (lane, lanes[lane]!.queue.pop())
        }

        private static func precedes(_ a: (priority: WorkPriority, sequence: UInt64), _ b: (priority: WorkPriority, sequence: UInt64)) -> Bool {
            (a.priority.rawValue, a.sequence) < (b.priority.rawValue, b.sequence)
        }
    }

    private struct LaneState {
        let width: Int
        let threads: Threads
        let leftovers: Leftovers
        var running = 0
        var isClosing: Bool
        var queue = JobQueue()

        var mayStart: Bool { running < width && !queue.isEmpty }
        var isIdle: Bool { running == 0 && queue.isEmpty }
    }

    /// `threads` normal threads (what the widest use needs, plus one so a serial lane is never
    /// starved by renders) and `loweredThreads` for background work.
    init(threads: Int, loweredThreads: Int = 1, name: String) {
        counts = [.normal: max(1, threads), .lowered: max(1, loweredThreads)]
        self.name = name
    }

    /// A new lane whose jobs run at `priority` unless queued at another.
    func lane(width: Int, priority: WorkPriority, threads: Threads = .normal, leftovers: Leftovers) -> Lane {
        let id = state.withLock { state in
            defer { state.nextLane += 1 }
            state.lanes[state.nextLane] = LaneState(width: max(1, width), threads: threads, leftovers: leftovers,
                                                   isClosing: state.closingLanes)
            return state.nextLane
        }
        return Lane(id: id, priority: priority, scheduler: self)
    }

    /// Closes every lane still open (each as it says), waits for what runs, and ends the threads.
    func shutdown() {
        let open = state.withLock { state in
            state.closingLanes = true
            return Array(state.lanes.keys)
        }
        for lane in open { close(lane) }
        state.withLock { $0.stopping = true }
        state.withLock(when: { $0.live == 0 }) { _ in }
    }

    fileprivate func submit(_ job: Job, to lane: Int, priority: WorkPriority) -> Lane.Ticket? {
        let (sequence, start): (UInt64?, Threads?) = state.withLock { state in
            guard let threads = state.lanes[lane]?.threads, state.lanes[lane]?.isClosing == false else { return (nil, nil) }
            state.nextSequence += 1
            state.lanes[lane]!.queue.push(job, priority: priority, sequence: state.nextSequence)
            guard state.started.insert(threads).inserted else { return (state.nextSequence, nil) }
            state.live += counts[threads]!
            return (state.nextSequence, threads)
        }
        guard let sequence else {
            job.cancel()
            return nil
        }
        if let start { startThreads(start) }
        return Lane.Ticket(sequence: sequence)
    }

    fileprivate func move(_ ticket: Lane.Ticket, on lane: Int, to priority: WorkPriority) {
        state.withLock { $0.lanes[lane]?.queue.move(ticket.sequence, to: priority) }
    }

    fileprivate func withdraw(_ ticket: Lane.Ticket, from lane: Int) -> Bool {
        state.withLock { $0.lanes[lane]?.queue.remove(ticket.sequence) } != nil
    }

    /// Refuses new jobs; cancels the queued ones or lets them run; returns once the lane is idle.
    fileprivate func close(_ lane: Int) {
        let dropped = state.withLock { state -> [Job] in
            guard state.lanes[lane] != nil else { return [] }
            state.lanes[lane]!.isClosing = true
            return state.lanes[lane]!.leftovers == .cancel ? state.lanes[lane]!.queue.removeAll() : []
        }
        for job in dropped { job.cancel() }
        state.withLock(when: { $0.lanes[lane]?.isIdle ?? true }) { $0.lanes[lane] = nil }
    }

    private func startThreads(_ threads: Threads) {
        for index in 0..<counts[threads]! {
            let thread = Thread { [self] in work(on: threads) }
            // Linux keeps 15 bytes of a thread's name: "assetfs-3", "assetfs-low-0".
            thread.name = threads == .lowered ? "\(name)-low-\(index)" : "\(name)-\(index)"
            thread.start()
        }
    }

    private func work(on threads: Threads) {
        Signals.blockTerminationInCurrentThread()
        if threads == .lowered { ThreadPriority.lowerCurrentThread() }
        while case let (lane, job)? = state.withLock(when: { $0.stopping || $0.hasRunnable(on: threads) }, { $0.next(on: threads) }) {
            job.run()
            state.withLock { $0.lanes[lane]?.running -= 1 }
        }
    }
}

/// Jobs that share a width, a default priority and a fate at closing (see `Scheduler`).
struct Lane: Sendable {
    /// A queued job, to raise it.
    struct Ticket: Sendable { fileprivate let sequence: UInt64 }

    fileprivate let id: Int
    let priority: WorkPriority
    fileprivate let scheduler: Scheduler

    /// Queues `job` (at the lane's priority unless told otherwise); once the lane is closed it is
    /// cancelled at once, and there is no ticket.
    @discardableResult
    func submit(_ job: Scheduler.Job, priority: WorkPriority? = nil) -> Ticket? {
        scheduler.submit(job, to: id, priority: priority ?? self.priority)
    }

    /// Moves a job still queued to `priority`, ahead or back (a job started or done is left as it is).
    func move(_ ticket: Ticket, to priority: WorkPriority) { scheduler.move(ticket, on: id, to: priority) }

    /// Takes a job still queued out of the lane: it will neither run nor be cancelled. False when
    /// it has started (or is done): it runs to its end.
    func withdraw(_ ticket: Ticket) -> Bool { scheduler.withdraw(ticket, from: id) }

    /// Ends the lane (see `Scheduler.Leftovers`) and waits until none of its jobs runs. Not from
    /// one of its own jobs, which would wait for itself.
    func close() { scheduler.close(id) }
}

/// Who is waiting for work, most urgent first: a person waiting for a thumbnail, a person waiting
/// for something larger (a fullscreen, an `ls -l` storm), `assetfs warm`, then the upkeep of the
/// catalog (a scan's reads and writes, the properties read in the background). Thumbnails never
/// queue behind fullscreens.
public enum WorkPriority: Int, Sendable, Comparable, CaseIterable {
    case thumbnail, interactive, warm, upkeep

    public static func < (a: WorkPriority, b: WorkPriority) -> Bool { a.rawValue < b.rawValue }
}
