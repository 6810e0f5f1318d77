import Glibc

/// A value behind a pthread mutex, with condition variables to wait for a state of it: the one
/// lock of the package, so that the types built on it are checked `Sendable` and this is the only
/// place their safety is taken on trust. Used instead of `Synchronization.Mutex` where threads
/// contend: on Linux that Mutex hands a contended lock over through a priority-inheritance futex,
/// which ThreadSanitizer does not model, so it reports races between accesses the lock keeps apart
/// (seen on the rendition pipeline's state). A pthread mutex and conditions it understands.
public final class Locked<Value>: @unchecked Sendable {
    // Internal, not private, for the inlinable `withLock`: inlined, each caller's use is
    // specialised to its types (every catalog request takes a lock or two), where a generic call
    // across modules looked up the value's and the result's type metadata each time.
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
    @usableFromInline var value: Value
    /// Threads blocked in `withLock(when:)`, each with what it waits for and its own condition:
    /// a change made under the lock wakes only those whose state has come (waking every waiter on
    /// every change woke the scheduler's idle threads several times per render, to sleep again).
    var waiters: [Waiter] = []

    struct Waiter {
        let isReady: (Value) -> Bool
        let condition: UnsafeMutablePointer<pthread_cond_t>
    }

    public init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    @inlinable
    public func withLock<R: ~Copyable, E: Error>(_ body: (inout Value) throws(E) -> R) throws(E) -> R {
        pthread_mutex_lock(mutex)
        defer { unlockWakingWaiters() }
        return try body(&value)
    }

    /// Blocks until `isReady` holds of the value (another thread changed it under the lock), then
    /// runs `body` in the same hold of the lock, so what was waited for is still true.
    public func withLock<R: ~Copyable, E: Error>(when isReady: (Value) -> Bool, _ body: (inout Value) throws(E) -> R) throws(E) -> R {
        pthread_mutex_lock(mutex)
        defer { unlockWakingWaiters() }
        if !isReady(value) {
            let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
            pthread_cond_init(condition, nil)
            defer {
                pthread_cond_destroy(condition)
                condition.deallocate()
            }
            withoutActuallyEscaping(isReady) { isReady in
                waiters.append(Waiter(isReady: isReady, condition: condition))
                while !isReady(value) { pthread_cond_wait(condition, mutex) }
                waiters.removeAll { $0.condition == condition }
            }
        }
        return try body(&value)
    }

    /// Wakes each waiter whose state holds now (it checks again: another may take it first).
    @usableFromInline
    func unlockWakingWaiters() {
        for waiter in waiters where waiter.isReady(value) { pthread_cond_signal(waiter.condition) }
        pthread_mutex_unlock(mutex)
    }
}
