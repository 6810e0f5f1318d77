import Foundation
import Testing

extension Mounted {
    /// A backup tool sees stable sizes and times: a second `rsync -a` has nothing to do.
    @Suite struct RsyncTests {
        @Test func secondRsyncTransfersNothing() throws {
            try withScratch(.naming) { scratch in
                let mount = try scratch.mount()
                let destination = scratch.path + "/backup/"
                let from = mount.point + "/groups/"
                let first = Command.run("rsync", ["-a", from, destination], timeout: 300)
                #expect(first.status == 0, "rsync: \(first.err)")
                let afterFirst = try mount.stats()

                let second = Command.run("rsync", ["-a", "--itemize-changes", from, destination], timeout: 300)
                #expect(second.status == 0, "rsync: \(second.err)")
                #expect(second.out.isEmpty, "the second rsync changed: \(second.out)")

                let third = Command.run("rsync", ["-a", "--stats", from, destination], timeout: 300)
                #expect(third.status == 0, "rsync: \(third.err)")
                #expect(third.out.contains("Number of regular files transferred: 0"), "\(third.out)")

                // The copy is what the mount shows, and re-reading rendered nothing new.
                let diff = Command.run("diff", ["-r", from, destination], timeout: 300)
                #expect(diff.status == 0, "diff -r: \(diff.out) \(diff.err)")
                let afterAll = try mount.stats()
                #expect(afterAll.renders == afterFirst.renders, "before \(afterFirst), after \(afterAll)")
                #expect(afterAll.renderFailures == 0)
            }
        }
    
        /// Copying one size through its view stats and renders only that size, once per photo.
        @Test func rsyncOfTheThumbnailsViewRendersOnlyThumbnails() throws {
            try withScratch(.naming) { scratch in
                let mount = try scratch.mount()
                let destination = scratch.path + "/thumbnails/"
                let from = mount.point + "/thumbnails/"
                let first = Command.run("rsync", ["-a", from, destination], timeout: 300)
                #expect(first.status == 0, "rsync: \(first.err)")
                let stats = try mount.stats()
                #expect(stats.renders == stats.assets, "one render per photo, no fullscreen: \(stats)")
                let second = Command.run("rsync", ["-a", "--itemize-changes", from, destination], timeout: 300)
                #expect(second.status == 0 && second.out.isEmpty, "the second rsync changed: \(second.out) \(second.err)")
                let diff = Command.run("diff", ["-r", from, destination], timeout: 300)
                #expect(diff.status == 0, "diff -r: \(diff.out) \(diff.err)")
                #expect(try mount.stats().renders == stats.renders)
            }
        }
    }
}
