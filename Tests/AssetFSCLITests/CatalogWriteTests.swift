import Foundation
import Glibc
import Testing

extension Mounted {
    /// A catalog write that fails (a full disk, a read-only cache folder) loses nothing: the change
    /// is kept, tried again, shown once it is written, and told in the statistics and once in the log.
    @Suite(.enabled(if: getuid() == 0, "mounts a tmpfs for the cache, which needs root"))
    struct CatalogWriteTests {
        static let library = Library(sourceName: "Photos", albums: [
            Library.Album(name: Array("Live".utf8), assets: [
                Library.Asset(name: Array("a".utf8), source: Array("Live/a.jpg".utf8), sample: "cameras/Casio_EX-S1.jpg"),
            ]),
        ])

        @Test func aFolderMadeWhileTheCacheDiskIsFullAppearsOnceThereIsRoom() throws {
            try withCacheFileSystem(size: "1m") { scratch, cacheFolder, mountWithCache in
                let mount = try mountWithCache()
                let filler = cacheFolder + "/filler"
                let fill = Command.bash(#"dd if=/dev/zero of="$1" bs=4k 2>/dev/null; true"#, [filler])
                #expect(fill.status == 0)

                try Self.addAlbum("New", to: scratch)
                let pending = eventually(timeout: 10) { (try? mount.stats().catalogPending ?? 0) ?? 0 > 0 }
                let stats = try mount.stats()
                #expect(pending && stats.catalogError?.contains("full") == true, "while the disk is full: \(stats.catalogPending as Any) \(stats.catalogError as Any)")
                #expect(RawFiles.names(in: mount.groups)?.map(\.text) == ["Live"], "nothing was written, so nothing new is shown yet")

                #expect(unlink(filler) == 0)
                let seconds = Self.secondsUntil { Self.shows("New", mount) }
                #expect(seconds < 8, "groups/New/c/thumbnail.jpg not readable \(seconds) s after room was made")
                try Self.expectWrittenAndLoggedOnce(mount, log: scratch.path + "/log")
                try Self.expectRenditionsStoredAgain(mount, log: scratch.path + "/log")
            }
        }

        @Test func photosAddedWhileTheCacheFolderIsReadOnlyAppearOnceItIsWritable() throws {
            try withCacheFileSystem(size: "10m") { scratch, cacheFolder, mountWithCache in
                let first = try mountWithCache()  // makes the catalog
                // Its photo's properties too (read in the background): else the read-only mount
                // below tries to store them as it starts, and says so before its log file is in use.
                let dated = eventually(timeout: 20) {
                    guard let stats = try? first.stats() else { return false }
                    return (stats.datesExif ?? 0) + (stats.datesMtime ?? 0) == 1
                }
                #expect(dated)
                first.unmount()
                // Busy until the daemon has closed its files (it may still be exiting).
                let readOnly = eventually(timeout: 30) { Command.run("mount", ["-o", "remount,ro", cacheFolder]).status == 0 }
                #expect(readOnly)
                let mount = try mountWithCache()

                try Self.addAlbum("New", to: scratch)
                try RawFiles.write(try TestData.contents("cameras/Nikon_D5000.jpg"), to: scratch.sourceBytes / "Live" / "b.jpg")
                let pending = eventually(timeout: 10) { (try? mount.stats().catalogPending ?? 0) ?? 0 > 0 }
                let stats = try mount.stats()
                #expect(pending && stats.catalogError?.contains("readonly") == true, "while read-only: \(stats.catalogPending as Any) \(stats.catalogError as Any)")
                #expect(RawFiles.names(in: mount.groups / "Live")?.contains(Array("b".utf8)) == false)

                #expect(Command.run("mount", ["-o", "remount,rw", cacheFolder]).status == 0)
                let seconds = Self.secondsUntil { Self.shows("New", mount) && statErrno(mount.groups / "Live" / "b" / "thumbnail.jpg") == 0 }
                #expect(seconds < 8, "the new album and photo not shown \(seconds) s after the cache folder was writable again")
                try Self.expectWrittenAndLoggedOnce(mount, log: scratch.path + "/log")
                try Self.expectRenditionsStoredAgain(mount, log: scratch.path + "/log")
            }
        }

        /// A scratch library whose cache and catalog live on a tmpfs of `size` of their own (unmounted
        /// after the assetfs mounts); `body` gets the tmpfs and a way to mount assetfs with it.
        private func withCacheFileSystem(size: String, _ body: (Scratch, String, () throws -> Mount) throws -> Void) throws {
            try withScratch(Self.library, changesSource: true) { scratch in
                let cacheFolder = scratch.path + "/cachefs"
                try RawFiles.makeDirectories(Array(cacheFolder.utf8))
                let made = Command.run("mount", ["-t", "tmpfs", "-o", "size=\(size)", "tmpfs", cacheFolder])
                try #require(made.status == 0, "mount -t tmpfs: \(made.err)")
                var mounts: [Mount] = []
                defer {
                    for mount in mounts { mount.unmount() }
                    // Busy until the daemons have closed their files; lazily unmounted at worst.
                    if !eventually(timeout: 30, { Command.run("umount", [cacheFolder]).status == 0 }) { Command.run("umount", ["-l", cacheFolder]) }
                }
                try body(scratch, cacheFolder) {
                    let mount = try scratch.adopt(point: scratch.mountpoint, command: AssetFS.binary, arguments: [
                        "-o", "cache=\(cacheFolder)/cache.sqlite,log=\(scratch.path)/log", scratch.source, scratch.mountpoint])
                    mounts.append(mount)
                    return mount
                }
            }
        }

        private static func addAlbum(_ name: String, to scratch: Scratch) throws {
            try RawFiles.makeDirectories(scratch.sourceBytes / name)
            try RawFiles.write(try TestData.contents("cameras/Samsung_GT-I9000_Galaxy_S.jpg"), to: scratch.sourceBytes / name / "c.jpg")
        }

        private static func shows(_ album: String, _ mount: Mount) -> Bool {
            RawFiles.names(in: mount.groups)?.contains(Array(album.utf8)) == true
                && (try? RawFiles.read(mount.groups / album / "c" / "thumbnail.jpg").get())?.starts(with: [0xFF, 0xD8]) == true
        }

        /// Seconds until `condition` holds (polled every 0.1 s; at most 20).
        private static func secondsUntil(_ condition: () -> Bool) -> Double {
            let start = Date()
            _ = eventually(timeout: 20, interval: 0.1, condition)
            return Date().timeIntervalSince(start)
        }

        /// The rendition cache, if it could not be opened meanwhile, opens at its next try.
        private static func expectRenditionsStoredAgain(_ mount: Mount, log: String) throws {
            sleep(6)  // the cache is tried again every 5 s
            #expect(statErrno(mount.groups / "Live" / "a" / "fullscreen.jpg") == 0)
            let stored = eventually(timeout: 10) { (try? mount.stats().cacheBytes) ?? 0 > 0 }
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            let failed = text.range(of: "cannot open the cache"), opened = text.range(of: "the cache opened")
            #expect(stored && (failed == nil || opened.map { $0.lowerBound > failed!.lowerBound } == true), "the log:\n\(text)")
        }

        private static func expectWrittenAndLoggedOnce(_ mount: Mount, log: String) throws {
            let stats = try mount.stats()
            #expect(stats.catalogPending == 0 && stats.catalogError == "", "\(stats.catalogPending as Any) \(stats.catalogError as Any)")
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            let failures = text.components(separatedBy: "cannot write the catalog").count - 1
            let recoveries = text.components(separatedBy: "the catalog is written again").count - 1
            #expect(failures == 1 && recoveries == 1, "the log:\n\(text)")
        }
    }
}
