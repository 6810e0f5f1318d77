import AssetFS
import Synchronization

/// A request on its way to the thread that answers it. `AssetFileSystem` completes lookups,
/// opens and reads through escaping `@Sendable` closures, which cannot hold a non-copyable
/// value: the closure holds this box, and the completion takes the request out to reply. One
/// never taken (a completion never called) answers EIO when the box goes; a second completion
/// finds nothing to answer.
final class PendingRequest: Sendable {
    private let request: Mutex<Request?>

    init(_ request: consuming Request) { self.request = Mutex(request) }

    /// The request, to the first caller only.
    func take() -> Request? { request.withLock { $0.take() } }

    /// The request's `Interruption` (registered with libfuse on first use), while it is unanswered.
    func interruptible() -> Interruption? {
        request.withLock { request -> Interruption? in
            guard var waiting = request.take() else { return nil }
            let interruption = waiting.interruptible()
            request = consume waiting
            return interruption
        }
    }
}
