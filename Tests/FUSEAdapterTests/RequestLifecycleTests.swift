@testable import FUSEAdapter
import Glibc
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
}
