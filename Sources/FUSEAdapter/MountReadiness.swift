import Foundation
import Glibc
import Posix

extension FUSEMount {
    /// Runs `body` on a thread of its own once the mount really serves: `statfs` of the
    /// mountpoint waits until libfuse has answered the kernel's INIT, and fails if that answer
    /// was a refusal (`-o max_read=`, say), in which case `body` never runs and the session
    /// loop ends with the error.
    func whenServing(_ body: @escaping @Sendable () -> Void) {
        let mountpoint = FilePath(self.mountpoint)
        let thread = Thread {
            Signals.blockTerminationInCurrentThread()
            var info = statvfs()
            guard (try? syscall { mountpoint.withCString { statvfs($0, &info) } }) != nil else { return }
            body()
        }
        thread.name = "assetfs-ready"
        thread.start()
    }
}
