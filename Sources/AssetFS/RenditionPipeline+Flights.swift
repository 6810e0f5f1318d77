import Posix
import RenditionCache

/// The renders in flight: who waits for each, at what priority, and what happens when a waiter
/// joins or leaves.
extension RenditionPipeline {
    /// A render asked for and not yet finished: who waits for it, the most urgent priority of
    /// those, and its queued job (once the submitter has it), to move. `number` tells it from a
    /// later render of the same key.
    struct InFlight {
        let number: UInt64
        var waiters: [Waiter]
        var priority: WorkPriority
        var ticket: Lane.Ticket?
    }

    struct Waiter {
        let id: UInt64
        let priority: WorkPriority
        let completion: Completion
    }

    /// Joins the render of the key in flight, or starts it: N callers, one render. The queued job
    /// runs at its most urgent waiter's priority (a thumbnail wanted now, joining `warm`'s render,
    /// raises it, as Nuke raises a task to its most urgent subscriber). A waiter whose request is
    /// interrupted leaves: the job moves back to the priority of those left, or, none left and
    /// still queued, is dropped; a render already running finishes into the cache.
    /// The lane's jobs are moved only under the pipeline's lock, so moves happen in order.
    /// `onStarting` is called, before anything can complete, if this caller starts the render.
    /// A broken photo's reason reaches each waiter told under its own request's name: the flight
    /// carries the cause alone, since copies sharing the key join it (`RenditionRequest.told`).
    func produceOnce(_ request: RenditionRequest, priority: WorkPriority, interruption: Interruption.Source?,
                     onStarting: @Sendable () -> Void = {}, completion: @escaping Completion) {
        let key = request.key
        let completion: Completion = { result in
            guard case .failure(.broken(let cause)) = result else { return completion(result) }
            completion(.failure(.broken(reason: request.told(cause))))
        }
        let (number, waiter, isNew): (UInt64, UInt64, Bool) = state.withLock { state in
            state.waitersJoined += 1
            let waiter = Waiter(id: state.waitersJoined, priority: priority, completion: completion)
            guard var flight = state.inFlight[key] else {
                state.rendersAsked += 1
                state.inFlight[key] = InFlight(number: state.rendersAsked, waiters: [waiter], priority: priority)
                return (state.rendersAsked, waiter.id, true)
            }
            flight.waiters.append(waiter)
            if priority < flight.priority {
                flight.priority = priority
                // Without a ticket yet, the submitter moves it (below).
                if let ticket = flight.ticket { renders.move(ticket, to: priority) }
            }
            state.inFlight[key] = flight
            return (flight.number, waiter.id, false)
        }
        if isNew { onStarting() }
        interruption?()?.onInterrupt { [self] in leave(key, flight: number, waiter: waiter) }
        guard isNew else { return }
        Statistics.bump(statistics.cacheMisses)
        guard let ticket = submit(request, flight: number, priority: priority) else { return }
        // Callers that joined or left before the ticket was stored may have changed the priority.
        state.withLock { state in
            guard var flight = state.inFlight[key], flight.number == number else { return }  // rendered already
            if flight.waiters.isEmpty, renders.withdraw(ticket) {
                state.inFlight[key] = nil
                return
            }
            flight.ticket = ticket
            state.inFlight[key] = flight
            if flight.priority != priority { renders.move(ticket, to: flight.priority) }
        }
    }

    /// Takes waiter `id` off the render `number` of `key` and tells it it was interrupted.
    private func leave(_ key: CacheKey, flight number: UInt64, waiter id: UInt64) {
        let left: Completion? = state.withLock { state in
            guard var flight = state.inFlight[key], flight.number == number,
                  let index = flight.waiters.firstIndex(where: { $0.id == id }) else { return nil }
            let waiter = flight.waiters.remove(at: index)
            if let priority = flight.waiters.map(\.priority).min() {
                if priority != flight.priority, let ticket = flight.ticket { renders.move(ticket, to: priority) }
                flight.priority = priority
            } else if let ticket = flight.ticket, renders.withdraw(ticket) {
                state.inFlight[key] = nil  // nobody waits and it had not started: not made
                return waiter.completion
            }
            state.inFlight[key] = flight
            return waiter.completion
        }
        left?(.failure(.unavailable(.interrupted, reason: "interrupted")))
    }

    private func submit(_ request: RenditionRequest, flight number: UInt64, priority: WorkPriority) -> Lane.Ticket? {
        let key = request.key
        return renders.submit(Scheduler.Job(
            run: { [self] in if let result = produce(request) { complete(key, flight: number, with: result) } },
            cancel: { [self] in complete(key, flight: number, with: .failure(.unavailable(.stopping, reason: "the mount is stopping"))) }),
            priority: priority)
    }

    /// Completes the render of `key` in flight: render `number` only when given (a job's own), else
    /// whichever is (a render judged once its source settled: none other starts meanwhile).
    func complete(_ key: CacheKey, flight number: UInt64? = nil, with result: Result<[UInt8], RenditionFailure>) {
        let waiters = state.withLock { state -> [Waiter] in
            guard let flight = state.inFlight[key], number == nil || flight.number == number else { return [] }
            state.inFlight[key] = nil
            return flight.waiters
        }
        for waiter in waiters { waiter.completion(result) }
    }
}
