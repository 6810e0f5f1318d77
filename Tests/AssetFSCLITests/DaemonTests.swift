import Foundation
import Glibc
import Testing

extension Mounted {
    /// Mounting from the command line: background daemon, fstab-style mounts, warm, stats.
    @Suite struct DaemonTests {
        @Test func returnsOnceMountedAndFusermountStopsTheDaemon() throws {
            try withScratch(.small) { scratch in
                let mount = try scratch.mount()  // returns when `assetfs` itself has exited
                // Usable at once, no waiting.
                #expect(RawFiles.names(in: mount.groups)?.map(\.text) == ["Family", "Holiday"])
                #expect((try? RawFiles.read(mount.groups / "Holiday" / "beach" / "thumbnail.jpg").get())?.starts(with: [0xFF, 0xD8]) == true)
                let info = Mount.mountInfo(mount.point) ?? ""
                #expect(info.contains(" - fuse.assetfs ") && info.contains(" ro,"), "mountinfo: \(info)")
                #expect(mount.startOutput?.err.isEmpty == true, "stderr of a successful mount: \(mount.startOutput?.err ?? "")")

                // The daemon lives on in the background, detached from the command that started it.
                let daemon = try #require(mount.daemons.first)
                #expect(Mount.isAlive(daemon))
                #expect(Mount.daemons(servingMountpoint: mount.point) == [daemon])

                let unmount = Command.run("fusermount3", ["-u", mount.point], timeout: 60)
                #expect(unmount.status == 0, "fusermount3 -u: \(unmount.err)")
                #expect(!Mount.isMounted(mount.point))
                #expect(Mount.waitForExit(daemon, timeout: 20), "the daemon \(daemon) did not exit after fusermount3 -u")
            }
        }

        /// SIGINT and SIGTERM unmount cleanly: the mount goes, the daemon exits and says so.
        @Test func interruptAndTerminateUnmount() throws {
            for signal in [SIGINT, SIGTERM] {
                try withScratch(.small) { scratch in
                    let log = scratch.path + "/assetfs.log"
                    let mount = try scratch.mount(options: ["log=\(log)"])
                    let daemon = try #require(mount.daemons.first)
                    kill(daemon, signal)
                    #expect(Mount.waitForExit(daemon, timeout: 20), "signal \(signal) left the daemon \(daemon) running")
                    #expect(!Mount.isMounted(mount.point), "signal \(signal) left the mount")
                    let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
                    #expect(text.contains("unmounted \(mount.point)"), "signal \(signal), the log:\n\(text)")
                }
            }
        }

        /// `mount -t fuse.assetfs` runs mount.fuse3, which runs `assetfs` from its own standard PATH
        /// (it ignores ours). If /usr/local/bin/assetfs exists it is what runs here (an installed
        /// build, maybe not the one under test: noted on stdout); if not, a symlink to the binary
        /// under test is put there for this test and removed afterwards.
        @Test func mountsThroughMountFuse3() throws {
            let link = "/usr/local/bin/assetfs"
            var installed = false
            if access(link, F_OK) != 0 {
                installed = symlink(AssetFS.binary, link) == 0
                try #require(installed, "cannot put a symlink at \(link): \(String(cString: strerror(errno)))")
            } else if RawFiles.realPath(link) != RawFiles.realPath(AssetFS.binary) {
                print("note: mount.fuse3 runs the installed \(link), not the binary under test \(AssetFS.binary)")
            }
            defer { if installed { unlink(link) } }

            try withScratch(.small) { scratch in
                let mount = try scratch.adopt(point: scratch.mountpoint, command: "mount",
                                              arguments: ["-t", "fuse.assetfs", scratch.source, scratch.mountpoint, "-o", "cache=\(scratch.cache),thumbnail_size=64"],
                                              environment: ["PATH": Command.standardPath])
                let info = Mount.mountInfo(mount.point) ?? ""
                #expect(info.contains(" - fuse.assetfs \(scratch.source) ") && info.contains(" ro,"), "mountinfo: \(info)")
                #expect(RawFiles.names(in: mount.groups)?.map(\.text) == ["Family", "Holiday"])
                let thumbnail = mount.groups / "Holiday" / "beach" / "thumbnail.jpg"
                expectFits(ChangeTests.identify(thumbnail), sample: "cameras/Casio_EX-S1.jpg", box: 64, path: thumbnail)
                #expect(FileManager.default.fileExists(atPath: scratch.cache), "the cache= option reached assetfs")
                let umount = Command.run("umount", [mount.point], timeout: 60)
                #expect(umount.status == 0, "umount: \(umount.err)")
            }
        }

        @Test func warmFillsTheCacheAMountUses() throws {
            let library = Library.small
            try withScratch(library) { scratch in
                let warm = AssetFS.run(["warm", "-o", "cache=\(scratch.cache)", scratch.source], timeout: 300)
                #expect(warm.status == 0, "warm: \(warm.out) \(warm.err)")
                #expect(warm.out.contains("rendered \(library.assetCount)"), "warm: \(warm.out)")
                let again = AssetFS.run(["warm", "-o", "cache=\(scratch.cache)", scratch.source], timeout: 300)
                #expect(again.status == 0 && again.out.contains("rendered 0"), "second warm: \(again.out) \(again.err)")
                let cacheStats = AssetFS.run(["cache", "stats", "-o", "cache=\(scratch.cache)", scratch.source], timeout: 60)
                #expect(cacheStats.status == 0 && cacheStats.out.contains(scratch.cache), "cache stats: \(cacheStats.out) \(cacheStats.err)")

                let mount = try scratch.mount()
                for thumbnail in library.thumbnails(mount: mount.bytes) {
                    #expect((try? RawFiles.read(thumbnail).get())?.starts(with: [0xFF, 0xD8]) == true, "\(thumbnail.text)")
                }
                let stats = try mount.stats()
                #expect(stats.renders == 0, "\(stats)")
                #expect(stats.cacheHits >= library.assetCount, "\(stats)")
            }
        }

        @Test func statsCommandPrintsTheCounters() throws {
            try withScratch(.small) { scratch in
                let mount = try scratch.mount()
                _ = RawFiles.read(mount.groups / "Holiday" / "beach" / "thumbnail.jpg")
                let json = try RawFiles.extendedAttribute("user.assetfs.stats", of: mount.bytes).get()
                let object = try #require(JSONSerialization.jsonObject(with: Data(json)) as? [String: Any])
                #expect(object["catalog_error"] as? String == "", "no catalog write failed")
                let counters = object.compactMapValues { $0 as? Int }
                #expect(Set(object.keys) == ["albums", "assets", "skipped", "renders", "render_failures", "broken", "cache_hits", "cache_misses",
                                             "cache_bytes", "folders_read", "source_online", "catalog_complete", "catalog_pending", "videos", "live_photos", "motion_photos", "posters",
                                             "dates_exif", "dates_xmp", "dates_sidecar", "dates_video", "dates_filename", "dates_mtime", "skipped_hidden",
                                             "skipped_audio_only", "skipped_not_a_photo",
                                             "skipped_unreadable", "skipped_special", "skipped_linked_folder", "skipped_sidecar", "skipped_housekeeping",
                                             "catalog_error"])
                #expect(counters.count == object.count - 1, "every field but catalog_error is a number: \(object)")
                #expect(counters["renders"] == 1 && counters["albums"] == 2 && counters["assets"] == 3 && counters["catalog_pending"] == 0)

                let result = AssetFS.run(["stats", mount.point], timeout: 60)
                #expect(result.status == 0, "stats: \(result.err)")
                var printed: [String: Int] = [:]
                for line in result.out.split(separator: "\n") {
                    let words = line.split(separator: " ")
                    guard let value = words.last.flatMap({ Int($0) }) else { continue }
                    printed[words.dropLast().joined(separator: "_")] = value
                }
                // The cache's size changes as the writer stores the rendition: compare the rest.
                #expect(printed.filter { $0.key != "cache_bytes" } == counters.filter { $0.key != "cache_bytes" }, "assetfs stats printed:\n\(result.out)")
                #expect(printed["cache_bytes"] != nil)
            }
        }
    }
}
