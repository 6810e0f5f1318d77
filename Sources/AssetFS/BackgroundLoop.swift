import Catalog
import MountModel
import Foundation
import Posix

/// One low-priority thread that runs a pass of background work each time it is poked (after every
/// synchronize): reading the properties of photos whose date is not known yet. Pokes while a
/// pass runs make one more pass, never a queue of them. It also sends the invalidations that
/// request handlers produce (they must not send them themselves: libfuse could deadlock).
/// The thread starts on `start` (after the daemon has forked) and `stop` waits for it.
final class BackgroundLoop: @unchecked Sendable {
    typealias Body = @Sendable (_ shouldContinue: @escaping @Sendable () -> Bool, _ invalidate: @escaping @Sendable ([Invalidation]) -> Void) -> Void

    private let name: String
    private let condition = NSCondition()
    private var body: Body?
    private var invalidate: @Sendable ([Invalidation]) -> Void = { _ in }
    private var pending = false
    private var stopping = false
    private var running = false
    private var queued: [Invalidation] = []

    init(name: String) { self.name = name }

    /// Starts the thread with its work and where invalidations go, and runs a first pass.
    func start(_ body: @escaping Body, invalidate: @escaping @Sendable ([Invalidation]) -> Void) {
        condition.lock()
        defer { condition.unlock() }
        guard self.body == nil, !stopping else { return }
        self.body = body
        self.invalidate = invalidate
        running = true
        pending = true
        let thread = Thread { [self] in loop() }
        thread.name = name
        thread.start()
    }

    /// Asks for another pass (a no-op until started).
    func poke() {
        condition.lock()
        pending = true
        condition.signal()
        condition.unlock()
    }

    /// Invalidations to send from the thread (dropped when it was never started).
    func send(_ invalidations: [Invalidation]) {
        guard !invalidations.isEmpty else { return }
        condition.lock()
        if body != nil { queued += invalidations }
        condition.signal()
        condition.unlock()
    }

    var isStopping: Bool {
        condition.lock()
        defer { condition.unlock() }
        return stopping
    }

    /// Ends the pass under way at its next photo and waits for the thread.
    func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        while running { condition.wait() }
        condition.unlock()
    }

    private func loop() {
        Signals.blockTerminationInCurrentThread()
        ThreadPriority.lowerCurrentThread()
        while true {
            condition.lock()
            while !pending && queued.isEmpty && !stopping { condition.wait() }
            if stopping {
                running = false
                condition.broadcast()
                condition.unlock()
                return
            }
            let work = pending ? body : nil
            pending = false
            let toSend = queued
            queued = []
            let invalidate = self.invalidate
            condition.unlock()
            invalidate(toSend)
            work?({ [self] in !isStopping }, invalidate)
        }
    }
}
