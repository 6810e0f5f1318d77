import Foundation
import Glibc
import Testing

extension Mounted {
    /// One mount per catalog: two daemons on one catalog would each tell only their own kernel
    /// what changed, so the second mount of a SOURCE with the same cache is refused.
    @Suite struct SharedCatalogTests {
        @Test func secondMountOfOneCatalogIsRefusedNamingTheFirst() throws {
            try withScratch(.small) { scratch in
                _ = try scratch.mount()
                let second = scratch.path + "/mnt2"
                try RawFiles.makeDirectories(Array(second.utf8))
                do {
                    _ = try scratch.mount(at: second)
                    Issue.record("a second mount of the same catalog was accepted")
                } catch {
                    let message = "\(error)"
                    #expect(message.contains("exited 2") && message.contains("in use by the mount on \(scratch.mountpoint) (assetfs pid ")
                            && message.contains("-o cache=FILE"), "\(message)")
                }
                #expect(!Mount.isMounted(second))

                // With a cache (and so a catalog) of its own, a second mount is fine.
                let own = try scratch.adopt(point: second, command: AssetFS.binary,
                                            arguments: ["-o", "cache=\(scratch.path)/other.sqlite", scratch.source, second])
                #expect(RawFiles.names(in: own.groups)?.map(\.text) == ["Family", "Holiday"])
            }
        }

        /// `fusermount3 -u` returns before the daemon has exited (and let go of the lock): a mount
        /// right after it waits for that instead of being refused.
        @Test func aMountRightAfterAnUnmountWaitsForTheOldDaemon() throws {
            try withScratch(.small) { scratch in
                for _ in 0..<5 {
                    let mount = try scratch.mount()
                    _ = RawFiles.read(mount.groups / "Holiday" / "beach" / "thumbnail.jpg")
                    let unmounted = Command.run("fusermount3", ["-u", scratch.mountpoint])
                    #expect(unmounted.status == 0, "\(unmounted.err)")
                }
            }
        }

        /// The lock goes with the daemon, however it ends: kill -9 leaves nothing stale.
        @Test func aKilledMountLeavesNoLockBehind() throws {
            try withScratch(.small) { scratch in
                let first = try scratch.mount()
                let daemon = try #require(first.daemons.first)
                #expect(kill(daemon, SIGKILL) == 0)
                #expect(Mount.waitForExit(daemon, timeout: 30))
                first.unmount()
                let second = scratch.path + "/mnt2"
                try RawFiles.makeDirectories(Array(second.utf8))
                let again = try scratch.mount(at: second)
                #expect(RawFiles.names(in: again.groups)?.map(\.text) == ["Family", "Holiday"])
            }
        }

        /// `warm` beside a mount renders into the cache they share, and reads the catalog the mount
        /// keeps: it scans one only if no mount ever did, never while a mount holds it.
        @Test func warmBesideAMountNeverScansTheCatalogTheMountKeeps() throws {
            let library = Library.small
            try withScratch(library) { scratch in
                let mount = try scratch.mount()
                let warm = AssetFS.run(["warm", "-o", "cache=\(scratch.cache)", scratch.source], timeout: 300)
                #expect(warm.status == 0 && warm.out.contains("rendered \(library.assetCount)"), "warm: \(warm.out) \(warm.err)")
                for thumbnail in library.thumbnails(mount: mount.bytes) {
                    #expect((try? RawFiles.read(thumbnail).get())?.starts(with: [0xFF, 0xD8]) == true, "\(thumbnail.text)")
                }
                #expect(try mount.stats().renders == 0, "the mount serves what warm stored")

                // A catalog whose whole scan the mount has not written yet (its first scan, or one
                // it could not write): warm would have to scan it, and refuses, naming the mount.
                let unmarked = Command.run("sqlite3", [scratch.path + "/cache.catalog.sqlite", "DELETE FROM meta WHERE key = 'complete'"])
                #expect(unmarked.status == 0, "\(unmarked.err)")
                let refused = AssetFS.run(["warm", "-o", "cache=\(scratch.cache)", scratch.source], timeout: 300)
                #expect(refused.status == 2 && refused.err.contains("is mounted on \(scratch.mountpoint)") && refused.err.contains("-o cache=FILE"),
                        "warm: \(refused.out) \(refused.err)")
                let cacheStats = AssetFS.run(["cache", "stats", "-o", "cache=\(scratch.cache)", scratch.source], timeout: 60)
                #expect(cacheStats.status == 0 && cacheStats.out.contains(scratch.cache), "cache stats beside the mount: \(cacheStats.out) \(cacheStats.err)")
            }
        }
    }
}
