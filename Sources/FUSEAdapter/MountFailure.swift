import Glibc
import Posix

/// Why `fuse_session_mount` failed, in one line: libfuse's own reason, plus a hint about
/// /dev/fuse and fuse3 only where that is the likely cause (a kernel refusing an option, say,
/// has nothing to do with either).
enum MountFailure {
    static func message(mountpoint: String, libfuseMessages: [String]) -> String {
        let reason = libfuseMessages.last ?? "mount failed"
        let hint = fuseLooksMissing ? " (is /dev/fuse there, and fuse3 installed?)" : ""
        return "cannot mount on \(mountpoint): \(reason)\(hint)"
    }

    /// /dev/fuse cannot be opened, or (not being root) there is no fusermount3 to mount with.
    static var fuseLooksMissing: Bool {
        guard (try? OwnedFileDescriptor.openReadWrite(FilePath("/dev/fuse"))) != nil else { return true }
        return geteuid() != 0 && !hasFusermount
    }

    /// Where libfuse looks for fusermount3: its install folder, then PATH.
    private static var hasFusermount: Bool {
        let path = getenv("PATH").map { String(cString: $0) } ?? ""
        return (["/usr/bin", "/bin"] + path.split(separator: ":").map(String.init)).contains { access("\($0)/fusermount3", X_OK) == 0 }
    }
}
