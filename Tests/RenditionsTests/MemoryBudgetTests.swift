import Foundation
import Testing
@testable import Renditions

@Suite struct MemoryBudgetTests {
    @Test func budgetRefusesWhatItCanNeverHoldAndWaitsForWhatItCan() throws {
        let budget = MemoryBudget(bytes: 100)
        #expect(throws: MemoryBudget.Failure.exceedsCapacity) { _ = try budget.reserve(101, wait: true) }
        let first = try budget.reserve(60, wait: false)
        #expect(budget.unused == 40)
        #expect(throws: MemoryBudget.Failure.busy) { _ = try budget.reserve(50, wait: false) }
        budget.release(first)
        #expect(budget.unused == 100)
        let second = try budget.reserve(100, wait: false)
        budget.release(second)
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
