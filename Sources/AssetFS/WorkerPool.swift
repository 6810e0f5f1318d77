import Foundation
import Posix

/// A fixed number of threads running submitted jobs in order: renders run about one per core,
/// never one thread per request. Threads start on first use (after the daemon has forked).
final class WorkerPool: @unchecked Sendable {
    private let threads: Int
    private let condition = NSCondition()
    private var jobs: [@Sendable () -> Void] = []
    private var head = 0
    private var started = false

    init(threads: Int) { self.threads = max(1, threads) }

    func submit(_ job: @escaping @Sendable () -> Void) {
        condition.lock()
        jobs.append(job)
        if !started {
            started = true
            for index in 0..<threads {
                let thread = Thread { [self] in work() }
                thread.name = "assetfs-render-\(index)"
                thread.start()
            }
        }
        condition.signal()
        condition.unlock()
    }

    private func work() {
        Signals.blockTerminationInCurrentThread()
        while true {
            condition.lock()
            while head == jobs.count { condition.wait() }
            let job = jobs[head]
            head += 1
            if head > 1024 && head * 2 > jobs.count { jobs.removeFirst(head); head = 0 }
            condition.unlock()
            job()
        }
    }
}
