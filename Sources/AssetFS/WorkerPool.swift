import Foundation
import Posix
import Synchronization

/// A fixed number of threads running submitted jobs, most urgent first, then in order: renders run
/// about one per core, never one thread per request. Threads start on first use (after the daemon
/// has forked). `shutdown` cancels what has not started and waits for what has, so nothing
/// answers a request after the session that asked is gone.
final class WorkerPool: @unchecked Sendable {
    /// Lower runs first.
    typealias Priority = WorkPriority

    /// One claim shared by the jobs a piece of work was queued as (again, more urgently): the
    /// first of them to run or be cancelled takes it, the others then do nothing.
    final class Claim: Sendable {
        private let taken = Atomic(false)
        func take() -> Bool { !taken.exchange(true, ordering: .acquiringAndReleasing) }
    }

    struct Job {
        var run: @Sendable () -> Void
        /// Called instead of `run` when the pool shuts down first.
        var cancel: @Sendable () -> Void
    }

    private let threads: Int
    private let name: String
    private let condition = NSCondition()
    private var queues: [Queue] = Priority.allCases.map { _ in Queue() }
    private var started = false
    private var stopping = false
    private var running = 0

    init(threads: Int, name: String) {
        self.threads = max(1, threads)
        self.name = name
    }

    /// Queues `job`; after `shutdown` it is cancelled at once.
    func submit(_ job: Job, priority: Priority = .interactive) {
        condition.lock()
        guard !stopping else {
            condition.unlock()
            return job.cancel()
        }
        queues[priority.rawValue].push(job)
        if !started {
            started = true
            running = threads
            for index in 0..<threads {
                let thread = Thread { [self] in work() }
                thread.name = "\(name)-\(index)"
                thread.start()
            }
        }
        condition.signal()
        condition.unlock()
    }

    /// Cancels queued jobs (or, with `finishQueued`, runs them), waits for running ones, ends the threads.
    func shutdown(finishQueued: Bool = false) {
        condition.lock()
        stopping = true
        let cancelled = finishQueued ? [] : queues.flatMap(\.waiting)
        if !finishQueued { queues = Priority.allCases.map { _ in Queue() } }
        condition.broadcast()
        condition.unlock()
        for job in cancelled { job.cancel() }
        condition.lock()
        while running > 0 { condition.wait() }
        condition.unlock()
    }

    private func work() {
        Signals.blockTerminationInCurrentThread()
        while true {
            condition.lock()
            while queues.allSatisfy(\.isEmpty) && !stopping { condition.wait() }
            guard let index = queues.firstIndex(where: { !$0.isEmpty }) else {
                running -= 1
                condition.broadcast()
                condition.unlock()
                return
            }
            let job = queues[index].pop()
            condition.unlock()
            job.run()
        }
    }

    /// First in, first out, without shifting the array on every take. A taken job's slot is
    /// emptied at once: a job's closure (and what it captures) must not outlive its run.
    private struct Queue {
        private var jobs: [Job?] = []
        private var head = 0
        var isEmpty: Bool { head == jobs.count }
        var waiting: [Job] { jobs[head...].compactMap { $0 } }

        mutating func push(_ job: Job) { jobs.append(job) }

        mutating func pop() -> Job {
            let job = jobs[head]!
            jobs[head] = nil
            head += 1
            if head == jobs.count {
                jobs.removeAll(keepingCapacity: true)
                head = 0
            } else if head > 1024 && head * 2 > jobs.count {
                jobs.removeFirst(head)
                head = 0
            }
            return job
        }
    }
}

/// Who is waiting for a render: a person waiting for a thumbnail, a person waiting for something
/// larger (a fullscreen, an `ls -l` storm), or `assetfs warm`. Thumbnails never queue behind fullscreens.
public enum WorkPriority: Int, Sendable, Comparable, CaseIterable {
    case thumbnail, interactive, background

    public static func < (a: WorkPriority, b: WorkPriority) -> Bool { a.rawValue < b.rawValue }
}
