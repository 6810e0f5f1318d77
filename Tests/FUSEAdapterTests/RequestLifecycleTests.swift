@testable import AssetFS
import Dispatch
@testable import FUSEAdapter
import Glibc
import Posix
import Testing

/// Every request gets exactly one reply, through real libfuse with no mount (`LoopbackKernel`).
/// That a second reply does not compile cannot be a test here: `Request`'s replies consume it.
@Suite struct RequestLifecycleTests {
    @Test func aRequestDroppedWithoutAReplyAnswersEIO() {
        let kernel = LoopbackKernel { request in _ = consume request }
        #expect(kernel.getattr() == [EIO])
    }

    @Test func aRepliedRequestAnswersOnlyItsReply() {
        let kernel = LoopbackKernel { request in request.refuse(.unknownHandle) }
        #expect(kernel.getattr() == [EBADF])
    }

    /// A completion that is never called must not leave the caller's system call waiting.
    @Test func aPendingRequestNeverTakenAnswersEIO() {
        let kernel = LoopbackKernel { request in _ = PendingRequest(request) }
        #expect(kernel.getattr() == [EIO])
    }

    @Test func aPendingRequestIsAnsweredByTheFirstCompletionOnly() {
        let kernel = LoopbackKernel { request in
            let pending = PendingRequest(request)
            pending.take()?.replySuccess()
            pending.take()?.reply(error: .notFound)
        }
        #expect(kernel.getattr() == [0])
    }

    /// The kernel's INTERRUPT of a request that waits reaches the work it waits for, on another
    /// thread than libfuse's, which then answers it (here with EINTR, as the render pipeline does);
    /// a request answered before any INTERRUPT is not answered again by a late one.
    @Test func anInterruptReachesTheWorkARequestWaitsFor() {
        let answered = DispatchSemaphore(value: 0)
        let waiting = Locked<[PendingRequest]>([])
        let kernel = LoopbackKernel { request in
            let pending = PendingRequest(request)
            pending.interruptible()?.onInterrupt {
                pending.take()?.reply(error: Errno(rawValue: EINTR))
                answered.signal()
            }
            waiting.withLock { $0.append(pending) }
        }
        let unique = kernel.startGetattr()
        #expect(kernel.replies(to: unique).isEmpty, "answered before its work was done")
        kernel.interrupt(unique)
        #expect(answered.wait(timeout: .now() + 10) == .success)
        #expect(kernel.replies(to: unique) == [EINTR])

        let second = kernel.startGetattr()
        waiting.withLock { $0.last?.take()?.replySuccess() }
        kernel.interrupt(second)
        #expect(answered.wait(timeout: .now() + 0.5) == .timedOut)
        #expect(kernel.replies(to: second) == [0])
    }
}
