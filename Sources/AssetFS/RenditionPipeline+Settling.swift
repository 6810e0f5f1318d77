import Dispatch
import Glibc
import PhotoSource
import Posix
import RenditionCache

/// A file still being written (a copy paused between its two halves) fails to decode as a broken
/// one does. Such a failure is judged once the file has settled, `settleTime` after its last
/// change: unchanged, it is broken (remembered, stored, logged); changed, its folder is read again
/// and the request fails as for any photo changed under a render, so the new version is rendered
/// on the next. Its readers wait meanwhile (no render thread does): none is shown, or keeps, a
/// placeholder for a photo that is only half there.
extension RenditionPipeline {
    /// Long enough for a copy's pause (a network stall, a camera's card), short for a reader.
    static let settleTime: Int64 = 2_000_000_000

    /// How long until a file with `status` has gone `settleTime` without a change (its mtime, or
    /// its ctime, which every write moves, whatever the writer sets the mtime to); nil once it has.
    static func timeToSettle(_ status: FileStatus) -> DispatchTimeInterval? {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let sinceChange = Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec) - max(status.modificationNanoseconds, status.changeNanoseconds)
        return sinceChange < settleTime ? .nanoseconds(Int(settleTime - max(0, sinceChange))) : nil
    }

    /// Completes the render of `request`'s key (whose waiters stay in flight) once its source has
    /// settled: broken for `cause` if the file is as the catalog has it, else changed.
    func judgeWhenSettled(_ request: RenditionRequest, cause: String, storing: Bool, after wait: DispatchTimeInterval) {
        let key = request.key
        state.withLock { _ = $0.settling.insert(key) }
        DispatchQueue.global().asyncAfter(deadline: .now() + wait) { [self] in
            let mine = state.withLock { state in
                guard !state.stopping, state.settling.remove(key) != nil else { return false }
                state.judging += 1
                return true
            }
            guard mine else { return }  // the mount stopped: `stopSettling` answered its readers
            defer { state.withLock { $0.judging -= 1 } }
            do throws(SourceFiles.Failure) {
                _ = try sourceFiles.open(request.photo)  // fails unless it is still as the catalog has it
                complete(key, with: fail(request, cause, storing: storing))
            } catch {
                complete(key, with: unavailable(request, error))
            }
        }
    }

    /// At shutdown: the renders waiting for their source to settle fail as stopped, and a judgement
    /// under way is let finish, so nothing completes a request after the pipeline is shut down.
    func stopSettling() {
        let waiting = state.withLock { state in
            state.stopping = true
            defer { state.settling = [] }
            return state.settling
        }
        for key in waiting { complete(key, with: .failure(.unavailable(.stopping, reason: "the mount is stopping"))) }
        state.withLock(when: { $0.judging == 0 }) { _ in }
    }
}
