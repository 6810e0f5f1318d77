import Dispatch
import Posix
import TestFixtures
import Testing
@testable import AssetFS

/// The background pass: a change poked while it hashes (content ids, rendition digests) ends the
/// hashing, so the next pass reads the changed photo's properties at once, not after the whole
/// library is hashed.
struct BackgroundLoopTests {
    @Test func aPokeDuringAPassIsWantedUntilTheNextPassBegins() {
        let scheduler = Scheduler(threads: 1, name: "test")
        defer { scheduler.shutdown() }
        let loop = BackgroundLoop(scheduler: scheduler)
        // Per pass: whether a pass was wanted as it began, and after it poked (the first pass only).
        let seen = Locked<[[Bool]]>([])
        let secondPassRan = DispatchSemaphore(value: 0)
        loop.start({ [weak loop] _, _ in  // as the mount's: the loop keeps its pass, not the other way round
            guard let loop else { return }
            let isFirst = seen.withLock { $0.isEmpty }
            var wanted = [loop.isPassWanted]
            if isFirst {
                loop.poke()
                wanted.append(loop.isPassWanted)
            }
            seen.withLock { $0.append(wanted) }
            if !isFirst { secondPassRan.signal() }
        }, invalidate: { _ in })
        #expect(secondPassRan.wait(timeout: .now() + 10) == .success, "the poke made no second pass")
        loop.stop()
        #expect(seen.withLock { $0 } == [[false, true], [false]])
    }

    @Test func hashingStopsWhenToldAndTheNextPassFinishesIt() throws {
        let fixture = Fixture(["A/hdr.jpg": "cameras/canon_hdr_NO.jpg", "A/htc.jpg": "cameras/HTC_Desire.jpg"])
        let fs = try fixture.fileSystem()
        let lackingIDs = { fs.catalog.read { $0.photosLackingContentID(after: 0, limit: 10) }.count }
        #expect(fs.readPendingProperties(hashingShouldContinue: { false }) == 2, "properties are read whatever the hashing is told")
        #expect(lackingIDs() == 2)
        #expect(fs.readPendingProperties() == 0)
        #expect(lackingIDs() == 0)
    }
}
