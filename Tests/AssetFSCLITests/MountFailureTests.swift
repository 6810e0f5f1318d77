import Foundation
import Glibc
import Testing

extension Mounted {
    /// A mount that cannot be made exits non-zero with the reason, whichever way it was started.
    @Suite struct MountFailureTests {
        /// How many mounts /proc/self/mountinfo lists on `point`.
        static func mountCount(_ point: String) -> Int { Mount.mountpoints().filter { $0 == point }.count }

        /// Takes mounts stacked on `point` above the first `keep` off again (a failing run leaves them).
        static func unstack(_ point: String, keep: Int) {
            for _ in 0..<max(0, mountCount(point) - keep) { Command.run("umount", ["-l", point], timeout: 60) }
        }

        @Test func refusesAMountpointThatHoldsALiveAssetfsMount() throws {
            try withScratch(.small) { scratch in
                let mount = try scratch.mount()
                for point in [mount.point, scratch.path + "/./mnt/"] {
                    let again = AssetFS.run(["-o", "cache=\(scratch.cache)", scratch.source, point], timeout: 60, mayLeaveDaemon: true)
                    #expect(again.status != 0, "a second mount on \(point) exited 0")
                    #expect(again.errorLines.count == 1 && again.err.contains("already has a filesystem mounted"), "\(again.err)")
                    #expect(Self.mountCount(mount.point) == 1, "mounts stacked on \(mount.point)")
                    Self.unstack(mount.point, keep: 1)
                }
                #expect(RawFiles.names(in: mount.groups)?.map(\.text) == ["Family", "Holiday"], "the first mount still serves")
            }
        }

        @Test func refusesAMountpointThatHoldsAnyOtherMount() throws {
            try withScratch(.small) { scratch in
                let bind = Command.run("mount", ["--bind", scratch.mountpoint, scratch.mountpoint], timeout: 60)
                try #require(bind.status == 0, "mount --bind: \(bind.err)")
                defer { Command.run("umount", [scratch.mountpoint], timeout: 60) }
                let result = AssetFS.run(["-o", "cache=\(scratch.cache)", scratch.source, scratch.mountpoint], timeout: 60, mayLeaveDaemon: true)
                #expect(result.status != 0 && result.err.contains("already has a filesystem mounted"), "exit \(result.status): \(result.err)")
                #expect(Self.mountCount(scratch.mountpoint) == 1, "assetfs stacked a mount on the bind mount")
                Self.unstack(scratch.mountpoint, keep: 1)
            }
        }

        /// A daemon killed by `kill -9` leaves a dead mount whose root the kernel still stats from
        /// its cache (as after any use): named as such, with the fix, not as a mount to unmount.
        @Test func aDeadMountIsNamedWithItsFix() throws {
            try withScratch(.small) { scratch in
                let mount = try scratch.mount()
                #expect(RawFiles.names(in: mount.bytes) != nil && statErrno(mount.bytes) == 0, "the mount serves")
                let daemon = try #require(mount.daemons.first)
                kill(daemon, SIGKILL)
                #expect(Mount.waitForExit(daemon, timeout: 20), "kill -9 left \(daemon) running")
                // The kernel aborts the connection once the last descriptor of /dev/fuse is
                // released, which may lag the process's exit under load: wait for what is tested.
                let dead = eventually(timeout: 10) {
                    var info = statvfs()
                    return statvfs(mount.point, &info) == -1 && errno == ENOTCONN
                }
                #expect(dead, "the mount still answers statfs after its daemon was killed")
                let again = AssetFS.run(["-o", "cache=\(scratch.cache)", scratch.source, mount.point], timeout: 60, mayLeaveDaemon: true)
                #expect(again.status != 0, "a mount on the dead one exited 0")
                #expect(again.errorLines.count == 1 && again.err.contains("is a dead mount") && again.err.contains("'fusermount3 -u \(mount.point)'"),
                        "\(again.err)")
                #expect(Self.mountCount(mount.point) == 1, "mounts stacked on \(mount.point)")
                Self.unstack(mount.point, keep: 1)
            }
        }

        /// The kernel refuses `blksize=` on a non-block FUSE mount: libfuse's reason, no word of /dev/fuse.
        @Test func aRefusedMountGivesLibfusesReason() throws {
            try withScratch(.small) { scratch in
                let result = AssetFS.run(["-o", "cache=\(scratch.cache),blksize=4096", scratch.source, scratch.mountpoint], timeout: 60, mayLeaveDaemon: true)
                #expect(result.status != 0, "exit 0: \(result.err)")
                #expect(result.errorLines.count == 1 && result.err.contains("Invalid argument"), "\(result.err)")
                #expect(!result.err.contains("/dev/fuse"), "the hint where /dev/fuse is fine: \(result.err)")
                #expect(Self.mountCount(scratch.mountpoint) == 0)
            }
        }

        /// /dev/fuse hidden (a tmpfs over /dev, in a private mount namespace): then the hint.
        @Test func theDevFuseHintWhenItIsMissing() throws {
            try withScratch(.small) { scratch in
                let script = #"mount -t tmpfs none /dev && exec "$@""#
                let result = Command.run("unshare", ["--mount", "--propagation", "private", "sh", "-c", script, "sh",
                                                     AssetFS.binary, "-f", "-o", "cache=\(scratch.cache)", scratch.source, scratch.mountpoint], timeout: 60)
                #expect(result.status != 0, "exit 0: \(result.err)")
                #expect(result.errorLines.count == 1 && result.err.contains("is /dev/fuse there"), "\(result.err)")
            }
        }

        /// libfuse takes `max_read=` when the session is made but refuses the kernel's INIT over it,
        /// after the mount: in the foreground, in the background and through mount.fuse3 (as fstab
        /// does; type `fuse` with `PROGRAM#SOURCE` runs the binary under test, whatever is installed).
        @Test func aMountRefusedAfterItWasMadeExitsNonZeroWithTheReason() throws {
            try withScratch(.small) { scratch in
                let options = "cache=\(scratch.cache),max_read=65536"
                let ways: [(String, [String], [String: String]?)] = [
                    (AssetFS.binary, ["-f", "-o", options, scratch.source, scratch.mountpoint], nil),
                    (AssetFS.binary, ["-o", options, scratch.source, scratch.mountpoint], nil),
                    ("mount", ["-t", "fuse", "\(AssetFS.binary)#\(scratch.source)", scratch.mountpoint, "-o", options], ["PATH": Command.standardPath]),
                ]
                for (command, arguments, environment) in ways {
                    let shown = "\(command) \(arguments.joined(separator: " "))"
                    let result = Command.run(command, arguments, timeout: 60, environment: environment, mayLeaveDaemon: true)
                    #expect(result.status != 0, "\(shown) exited 0: \(result.err)")
                    #expect(result.err.contains("maximum read size"), "\(shown): the reason is missing: \(result.err)")
                    #expect(eventually(timeout: 10) { Self.mountCount(scratch.mountpoint) == 0 }, "\(shown) left a mount")
                    #expect(Mount.daemons(servingMountpoint: scratch.mountpoint).isEmpty, "\(shown) left a daemon")
                    Self.unstack(scratch.mountpoint, keep: 0)
                }
            }
        }
    }
}
