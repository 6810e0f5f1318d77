import Dispatch
import Glibc
import Testing
@testable import Posix

/// `Locked.withLock(when:)`: a waiter goes on once its own state has come, whatever other
/// waiters wait for, and none is left asleep when its state comes.
@Suite struct LockedTests {
    @Test func eachWaiterGoesOnWhenItsOwnStateComes() {
        let value = Locked(0)
        let order = Locked<[Int]>([])
        let done = DispatchGroup()
        for wanted in [1, 2] {
            DispatchQueue.global().async(group: done) {
                value.withLock(when: { $0 >= wanted }) { _ in order.withLock { $0.append(wanted) } }
            }
        }
        // Both wait (their states have not come) until the value is raised past one, then the other.
        while value.withLock({ _ in value.waiters.count }) < 2 { usleep(1000) }
        value.withLock { $0 = 1 }  // only the first waiter's state
        while order.withLock({ $0.count }) < 1 { usleep(1000) }
        #expect(order.withLock { $0 } == [1], "the waiter for 2 went on at 1")
        #expect(value.withLock { _ in value.waiters.count } == 1)
        value.withLock { $0 = 2 }
        #expect(done.wait(timeout: .now() + 10) == .success, "a waiter slept through its state")
        #expect(order.withLock { $0 } == [1, 2])
        #expect(value.withLock { _ in value.waiters.isEmpty })
    }

    @Test func aStateAlreadyThereDoesNotWait() {
        let value = Locked(5)
        #expect(value.withLock(when: { $0 == 5 }) { $0 += 1; return $0 } == 6)
        #expect(value.withLock { _ in value.waiters.isEmpty })
    }
}
