import Foundation
import Glibc
import Testing

extension Mounted {
    /// A mount in the background logs to `-o log=FILE` (where there is no syslog, as here, that is
    /// where its log would otherwise be lost).
    @Suite struct BackgroundLogTests {
        @Test func aBrokenPhotoIsLoggedToTheLogFile() throws {
            try withScratch(BrokenPhotoTests.library) { scratch in
                let log = scratch.path + "/assetfs.log"
                let mount = try scratch.mount(options: ["log=\(log)"])  // no -f: the daemon
                let thumbnail = mount.groups / "Mixed" / "missing-sos" / "thumbnail.jpg"
                #expect(statErrno(thumbnail) == 0)  // the placeholder; the reason goes to the log
                let source = "Mixed/missing-sos.jpg"  // named inside SOURCE, as user.assetfs.error names it
                var text = ""
                let logged = eventually(timeout: 10) {
                    text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
                    return text.contains(source)
                }
                #expect(logged, "no line about \(source) in \(log):\n\(text)")
                let line = text.split(separator: "\n").first { $0.contains(source) }.map(String.init) ?? ""
                let pattern = #"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}Z assetfs\[\#(mount.daemons.first ?? -1)\]: "#
                #expect(line.range(of: pattern, options: .regularExpression) != nil, "timestamp and the daemon's pid first: \(line)")
                #expect(text.contains("mounted \(scratch.source) on \(mount.point)"), "\(text)")
                let permissions = try FileManager.default.attributesOfItem(atPath: log)[.posixPermissions] as? Int
                #expect(permissions == 0o600)
            }
        }

        /// logrotate moves the log away and sends SIGHUP (its postrotate): the daemon starts a new
        /// file at the same path and goes on serving, where libfuse's default would unmount.
        @Test func hangUpReopensTheLogFileAndKeepsServing() throws {
            try withScratch(.small) { scratch in
                let log = scratch.path + "/assetfs.log", rotated = log + ".1"
                let mount = try scratch.mount(options: ["log=\(log)"])
                let daemon = try #require(mount.daemons.first)
                try #require(rename(log, rotated) == 0)
                kill(daemon, SIGHUP)
                var text = ""
                let reopened = eventually(timeout: 10) {
                    text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
                    return text.contains("SIGHUP: reopened the log \(log)")
                }
                #expect(reopened, "no new \(log) after SIGHUP:\n\(text)")
                #expect(Mount.isAlive(daemon) && Mount.isMounted(mount.point), "SIGHUP ended the mount")
                #expect(RawFiles.names(in: mount.groups)?.map(\.text) == ["Family", "Holiday"], "the mount still serves")
                let before = (try? String(contentsOfFile: rotated, encoding: .utf8)) ?? ""
                #expect(before.contains("mounted \(scratch.source) on \(mount.point)") && !before.contains("SIGHUP"), "the rotated log:\n\(before)")
                let permissions = try FileManager.default.attributesOfItem(atPath: log)[.posixPermissions] as? Int
                #expect(permissions == 0o600)
            }
        }
    }
}
