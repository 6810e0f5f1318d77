import Foundation
import Glibc
import Testing

extension Mounted {
    /// Nothing can be written through the mount, and the source is never touched.
    @Suite struct ReadOnlyTests {
        @Test func writesFailWithReadOnlyFileSystem() throws {
            let library = Library.small
            try withScratch(library) { scratch in
                let mount = try scratch.mount()
                let groups = mount.point + "/groups"
                let original = groups + "/Holiday/beach/original.jpg"
                let attempts: [(String, [String])] = [
                    ("touch", [groups + "/x"]),
                    ("touch", [original]),
                    ("bash", ["-c", "printf x >> \"$1\"", "bash", original]),
                    ("bash", ["-c", "printf x > \"$1\"", "bash", groups + "/Holiday/thumbnail.jpg"]),
                    ("mkdir", [groups + "/newdir"]),
                    ("mkdir", [groups + "/Holiday/beach/newdir"]),
                    ("rm", ["-f", original]),
                    ("rm", ["-rf", groups + "/Family"]),
                    ("mv", [groups + "/Holiday", groups + "/Elsewhere"]),
                    ("chmod", ["777", original]),
                    ("ln", ["-s", "original.jpg", groups + "/Holiday/beach/link.jpg"]),
                    ("setfattr", ["-n", "user.x", "-v", "1", original]),
                ]
                for (tool, arguments) in attempts {
                    let result = Command.run(tool, arguments)
                    #expect(result.status != 0 && result.err.contains("Read-only file system"),
                            "\(tool) \(arguments.joined(separator: " ")): exit \(result.status), \(result.err)")
                }
                // The same through the system calls, for the exact errno.
                #expect(errnoOf(opens: true) { open(original, O_WRONLY) } == EROFS)
                #expect(errnoOf(opens: true) { open(groups + "/y", O_WRONLY | O_CREAT, 0o644) } == EROFS)
                #expect(errnoOf { unlink(original) } == EROFS)
                #expect(errnoOf { rmdir(groups + "/Family") } == EROFS)

                // Nothing changed in the mount either, and reading everything leaves the source alone.
                let find = Command.run("find", Library.findArguments(mount.point))
                #expect(Set(find.nulFields) == library.expectedPaths(mount: mount.bytes))
                let cat = Command.bash(#"find "$1" -type f -exec cat {} + | wc -c"#, [mount.point])
                #expect(cat.status == 0 && (Int(cat.out.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0) > 0)
                #expect((try? RawFiles.read(Array(original.utf8)).get()) == (try TestData.contents("cameras/Casio_EX-S1.jpg")))
                mount.unmount()
                scratch.expectSourceUnchanged()
            }
        }

        @Test func dfWorks() throws {
            try withScratch(.small) { scratch in
                let mount = try scratch.mount()
                let df = Command.run("df", [mount.point])
                #expect(df.status == 0, "df: \(df.err)")
                #expect(df.out.contains(mount.point), "\(df.out)")
                let inodes = Command.run("df", ["-i", mount.point])
                #expect(inodes.status == 0, "df -i: \(inodes.err)")
                var info = statvfs()
                #expect(statvfs(mount.point, &info) == 0)
                #expect(info.f_flag & UInt(ST_RDONLY) != 0, "statvfs reports a read-only mount")
            }
        }
    }
}

/// The errno a failing call (-1) left, or 0 when it succeeded (closing the descriptor it opened).
func errnoOf(opens: Bool = false, _ call: () -> Int32) -> Int32 {
    let result = call()
    guard result < 0 else {
        if opens { close(result) }
        return 0
    }
    return errno
}
