import Foundation
import Posix

extension FUSEMount {
    /// SIGHUP, as daemons take it, reopens the log file (logrotate's postrotate sends it) and the
    /// mount goes on serving; libfuse's handler would unmount. Called in the process that serves,
    /// after libfuse installed its handlers: the thread that reopens would not survive the fork.
    func reopenLogOnHangUp() {
        let hangUps: OwnedFileDescriptor
        do { hangUps = try Signals.catchHangUps() } catch {
            return Log.warning("cannot catch SIGHUP (\(error)): it will unmount, as SIGTERM does")
        }
        let thread = Thread {
            Signals.blockTerminationInCurrentThread()
            while let byte = try? hangUps.read(upTo: 1), !byte.isEmpty {
                do {
                    if let path = try Log.reopenFile() { Log.info("SIGHUP: reopened the log \(path)") }
                } catch {
                    Log.error("SIGHUP: cannot reopen the log file: \(error); logging on to the one open")
                }
            }
        }
        thread.name = "assetfs-hangup"
        thread.start()
    }
}
