import Foundation
import Testing
@testable import Renditions

@Suite struct MemoryBudgetTests {
    @Test func budgetRefusesOnlyPastTheCeilingAndWaitsForWhatItCan() throws {
        let budget = MemoryBudget(bytes: 100, ceiling: 1000)
        #expect(throws: MemoryBudget.Failure.overCeiling) { _ = try budget.reserve(1001, wait: true) }
        let first = try budget.reserve(60, wait: false)
        #expect(budget.unused == 40)
        #expect(throws: MemoryBudget.Failure.busy) { _ = try budget.reserve(50, wait: false) }
        #expect(throws: MemoryBudget.Failure.busy) { _ = try budget.reserve(500, wait: false) }
        first.release()
        #expect(budget.unused == 100)
        // Over the budget, under the ceiling: runs when nothing else does, holding the whole budget.
        let alone = try budget.reserve(500, wait: false)
        #expect(budget.unused == 0)
        alone.release()
        #expect(budget.unused == 100)
    }

    /// A reservation let go without `release()` (its scope ended, by a return or a throw) gives
    /// its memory back all the same: it cannot be forgotten, and cannot be given back twice.
    @Test func aReservationLetGoGivesItsMemoryBack() throws {
        let budget = MemoryBudget(bytes: 100, ceiling: 1000)
        struct Failed: Error {}
        func holdThenThrow() throws {
            let reservation = try budget.reserve(70, wait: false)
            #expect(budget.unused == 30)
            defer { withExtendedLifetime(reservation) {} }
            throw Failed()
        }
        #expect(throws: Failed.self) { try holdThenThrow() }
        #expect(budget.unused == 100)
        do {
            let held = try budget.reserve(100, wait: false)
            #expect(budget.unused == 0)
            _ = consume held
        }
        #expect(budget.unused == 100)
    }

    @Test func aRequestOverTheBudgetWaitsToRunAloneAndLaterOnesQueueBehindIt() throws {
        let budget = MemoryBudget(bytes: 100, ceiling: 1000)
        let held = try budget.reserve(30, wait: false)
        let order = Box<[String]>([])
        let lock = NSLock()
        @Sendable func note(_ event: String) { lock.lock(); order.value.append(event); lock.unlock() }
        let bigDone = DispatchSemaphore(value: 0), smallDone = DispatchSemaphore(value: 0)
        let releaseBig = DispatchSemaphore(value: 0)
        Thread {
            if let reservation = try? budget.reserve(500, wait: true) {
                note("big runs with \(budget.unused) unused")
                releaseBig.wait()
                reservation.release()
            }
            bigDone.signal()
        }.start()
        #expect(bigDone.wait(timeout: .now() + 0.2) == .timedOut) // waits for the 30 held
        Thread {
            // 70 are free, but the big request came first: it queues behind it.
            if let reservation = try? budget.reserve(10, wait: true) {
                note("small runs")
                reservation.release()
            }
            smallDone.signal()
        }.start()
        #expect(smallDone.wait(timeout: .now() + 0.2) == .timedOut)
        held.release()
        Thread.sleep(forTimeInterval: 0.2)
        #expect(order.value == ["big runs with 0 unused"])
        releaseBig.signal()
        #expect(bigDone.wait(timeout: .now() + 10) == .success)
        #expect(smallDone.wait(timeout: .now() + 10) == .success)
        #expect(order.value == ["big runs with 0 unused", "small runs"])
        #expect(budget.unused == 100)
    }

    @Test func aWaitingReservationGoesAheadWhenMemoryIsGivenBack() throws {
        let budget = MemoryBudget(bytes: 100)
        let held = try budget.reserve(80, wait: false)
        // The waiter blocks a thread of its own, not one of the test runner's.
        let unusedWhileHeld = Box<Int?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread {
            if let reservation = try? budget.reserve(50, wait: true) {
                unusedWhileHeld.value = budget.unused
                reservation.release()
            }
            done.signal()
        }.start()
        #expect(done.wait(timeout: .now() + 0.2) == .timedOut) // still waiting
        #expect(budget.unused == 20)
        held.release()
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(unusedWhileHeld.value == 50)
        #expect(budget.unused == 100)
    }
}
