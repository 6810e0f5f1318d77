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
        budget.release(first)
        #expect(budget.unused == 100)
        // Over the budget, under the ceiling: runs when nothing else does, holding the whole budget.
        let alone = try budget.reserve(500, wait: false)
        #expect(budget.unused == 0)
        budget.release(alone)
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
                budget.release(reservation)
            }
            bigDone.signal()
        }.start()
        #expect(bigDone.wait(timeout: .now() + 0.2) == .timedOut) // waits for the 30 held
        Thread {
            // 70 are free, but the big request came first: it queues behind it.
            if let reservation = try? budget.reserve(10, wait: true) {
                note("small runs")
                budget.release(reservation)
            }
            smallDone.signal()
        }.start()
        #expect(smallDone.wait(timeout: .now() + 0.2) == .timedOut)
        budget.release(held)
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
                budget.release(reservation)
            }
            done.signal()
        }.start()
        #expect(done.wait(timeout: .now() + 0.2) == .timedOut) // still waiting
        #expect(budget.unused == 20)
        budget.release(held)
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(unusedWhileHeld.value == 50)
        #expect(budget.unused == 100)
    }
}
