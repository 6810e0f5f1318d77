import Glibc

/// A value behind a pthread mutex. Used instead of `Synchronization.Mutex` where threads contend:
/// on Linux that Mutex hands a contended lock over through a priority-inheritance futex, which
/// ThreadSanitizer does not model, so it reports races between accesses the lock keeps apart
/// (seen on the rendition pipeline's state). A pthread mutex it understands.
public final class Locked<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    public init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    public func withLock<R, E: Error>(_ body: (inout Value) throws(E) -> R) throws(E) -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
