import Glibc

/// A value behind a pthread mutex, with a condition variable to wait for a state of it: the one
/// lock of the package, so that the types built on it are checked `Sendable` and this is the only
/// place their safety is taken on trust. Used instead of `Synchronization.Mutex` where threads
/// contend: on Linux that Mutex hands a contended lock over through a priority-inheritance futex,
/// which ThreadSanitizer does not model, so it reports races between accesses the lock keeps apart
/// (seen on the rendition pipeline's state). A pthread mutex and condition it understands.
public final class Locked<Value>: @unchecked Sendable {
    // Internal, not private, for the inlinable `withLock`: inlined, each caller's use is
    // specialised to its types (every catalog request takes a lock or two), where a generic call
    // across modules looked up the value's and the result's type metadata each time.
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    @usableFromInline var value: Value
    /// Threads blocked in `withLock(when:)`: any change made under the lock wakes them to look again.
    private var waiting = 0

    public init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        condition = .allocate(capacity: 1)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deallocate()
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
        waiting += 1
        while !isReady(value) { pthread_cond_wait(condition, mutex) }
        waiting -= 1
        return try body(&value)
    }

    /// A broadcast only when someone waits: every `withLock` may have made a waiter's state true.
    @usableFromInline
    func unlockWakingWaiters() {
        if waiting > 0 { pthread_cond_broadcast(condition) }
        pthread_mutex_unlock(mutex)
    }
}
