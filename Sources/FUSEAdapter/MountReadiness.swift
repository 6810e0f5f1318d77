import Foundation
import Posix
import Synchronization

extension FUSEMount {
    /// Runs `body` on a thread of its own once the mount really serves: a statvfs of the mount
    /// waits until libfuse has answered the kernel's INIT, and fails if that answer was a refusal
    /// (`-o max_read=`, say); then `body` never runs and the session loop ends with the error.
    /// The mount's root is held from now, while the mount is surely there: a statvfs by path,
    /// were the session to fail and unmount first, would reach the folder beneath and pass.
    func whenServing(_ body: @escaping @Sendable () -> Void) {
        // Handed to the thread through a mutex: the thread takes it, to close it before anything else.
        let root = Mutex(try? OwnedFileDescriptor.openPath(FilePath(mountpoint)))
        let thread = Thread {
            Signals.blockTerminationInCurrentThread()
            guard let held = root.withLock({ $0.take() }) else { return body() }  // cannot tell: as fuse_daemonize did, assume it serves
            let serving = (try? held.checkFileSystem()) != nil
            try? held.close()  // before anything else: a held root would make a plain umount fail (busy)
            if serving { body() }
        }
        thread.name = "assetfs-ready"
        thread.start()
    }
}
