import Dispatch
import Glibc
import Posix
import Testing
@testable import AssetFS

/// The one pool of threads: which queued job a free thread takes (most urgent of any lane, then
/// in order), a lane's width, raising a queued job, and what closing a lane does with its queue.
/// One thread, held by a first job, makes the order of the rest deterministic.
@Suite struct SchedulerTests {
    /// Jobs that note their name when they run or are cancelled; `hold` blocks the thread until `release`.
    final class Journal: Sendable {
        private let entries = Locked<[String]>([])
        private let holding = DispatchSemaphore(value: 0)
        private let held = DispatchSemaphore(value: 0)
        var names: [String] { entries.withLock { $0 } }

        func job(_ name: String) -> Scheduler.Job {
            Scheduler.Job(run: { [self] in entries.withLock { $0.append(name) } },
                          cancel: { [self] in entries.withLock { $0.append("cancelled " + name) } })
        }

        /// Queues a job that holds its thread, and returns once it runs.
        func hold(_ lane: Lane) {
            lane.submit(Scheduler.Job(run: { [self] in
                held.signal()
                holding.wait()
            }))
            held.wait()
        }

        func release() { holding.signal() }
    }

    @Test func aFreeThreadTakesTheMostUrgentJobOfAnyLaneThenTheFirstQueued() {
        let scheduler = Scheduler(threads: 1, name: "test")
        defer { scheduler.shutdown() }
        let journal = Journal()
        let upkeep = scheduler.lane(width: 1, priority: .upkeep, leftovers: .run)
        let renders = scheduler.lane(width: 2, priority: .interactive, leftovers: .run)
        journal.hold(upkeep)
        upkeep.submit(journal.job("scan 1"))
        renders.submit(journal.job("fullscreen"))
        renders.submit(journal.job("thumbnail"), priority: .thumbnail)
        upkeep.submit(journal.job("scan 2"))
        renders.submit(journal.job("warm"), priority: .warm)
        journal.release()
        upkeep.close()
        renders.close()
        #expect(journal.names == ["thumbnail", "fullscreen", "warm", "scan 1", "scan 2"])
    }

    @Test func aRaisedJobRunsAheadOfThoseQueuedBeforeIt() {
        let scheduler = Scheduler(threads: 1, name: "test")
        defer { scheduler.shutdown() }
        let journal = Journal()
        let renders = scheduler.lane(width: 1, priority: .warm, leftovers: .run)
        journal.hold(renders)
        renders.submit(journal.job("warm 1"))
        renders.submit(journal.job("fullscreen"), priority: .interactive)
        let ticket = renders.submit(journal.job("warm 2"))
        renders.move(ticket!, to: .thumbnail)
        journal.release()
        renders.close()
        #expect(journal.names == ["warm 2", "fullscreen", "warm 1"])
        renders.move(ticket!, to: .thumbnail)  // run and gone: nothing to move
    }

    /// A job moved back (its urgent waiter left) queues behind the jobs of its new priority; one
    /// withdrawn never runs nor is cancelled, and once started it can no longer be withdrawn.
    @Test func aLoweredJobQueuesBackAndAWithdrawnOneNeverRuns() {
        let scheduler = Scheduler(threads: 1, name: "test")
        defer { scheduler.shutdown() }
        let journal = Journal()
        let renders = scheduler.lane(width: 1, priority: .warm, leftovers: .run)
        journal.hold(renders)
        let lowered = renders.submit(journal.job("was a thumbnail"), priority: .thumbnail)
        renders.submit(journal.job("fullscreen"), priority: .interactive)
        let withdrawn = renders.submit(journal.job("withdrawn"))
        renders.submit(journal.job("warm"))
        renders.move(lowered!, to: .warm)
        #expect(renders.withdraw(withdrawn!))
        #expect(!renders.withdraw(withdrawn!), "withdrawn twice")
        journal.release()
        renders.close()
        #expect(journal.names == ["fullscreen", "warm", "was a thumbnail"])
        #expect(!renders.withdraw(lowered!), "a job that ran was withdrawn")
    }

    @Test func aSerialLaneRunsItsJobsInOrderOneAtATimeOnManyThreads() {
        let scheduler = Scheduler(threads: 4, name: "test")
        defer { scheduler.shutdown() }
        let running = Locked((now: 0, most: 0, order: [Int]()))
        let writes = scheduler.lane(width: 1, priority: .upkeep, leftovers: .run)
        for index in 0..<200 {
            writes.submit(Scheduler.Job(run: {
                running.withLock { $0.now += 1; $0.most = max($0.most, $0.now); $0.order.append(index) }
                running.withLock { $0.now -= 1 }
            }))
        }
        writes.close()
        let seen = running.withLock { $0 }
        #expect(seen.most == 1)
        #expect(seen.order == Array(0..<200))
    }

    @Test func closingCancelsOrRunsWhatIsQueuedWaitsForWhatRunsAndRefusesLaterJobs() {
        let scheduler = Scheduler(threads: 1, name: "test")
        defer { scheduler.shutdown() }
        let journal = Journal()
        let renders = scheduler.lane(width: 1, priority: .interactive, leftovers: .cancel)
        let writes = scheduler.lane(width: 1, priority: .thumbnail, leftovers: .run)
        journal.hold(renders)
        renders.submit(journal.job("render"))
        writes.submit(journal.job("write"))
        let closed = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            renders.close()
            closed.signal()
        }
        while journal.names.isEmpty { usleep(1000) }
        #expect(journal.names == ["cancelled render"])
        #expect(closed.wait(timeout: .now() + .milliseconds(50)) == .timedOut, "a job of the lane still runs")
        journal.release()
        closed.wait()
        writes.close()
        #expect(renders.submit(journal.job("late render")) == nil)
        #expect(journal.names == ["cancelled render", "write", "cancelled late render"])
    }

    @Test func shuttingDownClosesEveryLaneAndLanesMadeAfterAreClosed() {
        let scheduler = Scheduler(threads: 2, name: "test")
        let journal = Journal()
        let writes = scheduler.lane(width: 1, priority: .thumbnail, leftovers: .run)
        let background = scheduler.lane(width: 1, priority: .upkeep, threads: .lowered, leftovers: .cancel)
        journal.hold(background)
        background.submit(journal.job("properties"))
        writes.submit(journal.job("write"))
        DispatchQueue.global().async {
            while !journal.names.contains("cancelled properties") { usleep(1000) }
            journal.release()
        }
        scheduler.shutdown()
        #expect(Set(journal.names) == ["write", "cancelled properties"])
        let late = scheduler.lane(width: 1, priority: .interactive, leftovers: .run)
        #expect(late.submit(journal.job("late")) == nil)
    }

    /// A whole scan's catalog writes are never lost: once the scheduler has shut down, the walk's
    /// thread writes them itself (as when the writer had a thread of its own).
    @Test func aScanAfterShutdownStillWritesTheCatalog() throws {
        let fixture = Fixture(["A/one.jpg": "orientation/Landscape_1.jpg"])
        let fs = try fixture.fileSystem()
        fs.shutdown()
        fixture.copy("orientation/Landscape_3.jpg", to: "B/two.jpg")
        #expect(fs.synchronize(.everything))
        #expect(fs.catalog.read { $0.allRenditionSources() }.count == 2)
    }
}
