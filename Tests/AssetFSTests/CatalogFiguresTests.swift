@testable import Catalog
import Foundation
import Testing
@testable import AssetFS

/// The stats' catalog figures (`CatalogFigures`): counted again only once the catalog changed,
/// and a slow count not again before it has rested ten times as long.
@Suite struct CatalogFiguresTests {
    func assets(_ fs: AssetFileSystem) throws -> Int {
        let json = try #require(try? fs.extendedAttribute(1, name: Array("user.assetfs.stats".utf8), as: .ofThisProcess).get())
        let stats = try #require(try JSONSerialization.jsonObject(with: Data(json)) as? [String: Any])
        return try #require(stats["assets"] as? Int)
    }

    @Test func statsReadAgainCostNoCountUntilTheCatalogChanges() throws {
        let fixture = Fixture(["Album/a.jpg": "orientation/Landscape_1.jpg", "Album/b.jpg": "orientation/Landscape_3.jpg"])
        let fs = try fixture.fileSystem()
        #expect(try assets(fs) == 2)
        let again = RequestCostTests.statements(fs) { _ = try? assets(fs) }
        #expect(again <= 1, "only whether the catalog is complete is asked: \(again) statements")
        fixture.copy("orientation/Portrait_6.jpg", to: "Album/c.jpg")
        _ = fs.rescan()
        let counted = RequestCostTests.statements(fs) { #expect((try? assets(fs)) == 3) }
        #expect(counted > again, "a commit came: counted again (\(counted) statements)")
    }

    @Test func aSlowCountRestsTenTimesItsTime() {
        let figures = CatalogFigures.Figures(counts: CatalogStore.Counts(), dates: [:], skipped: [:])
        let start = ContinuousClock.now
        let slow = CatalogFigures.Counted(figures: figures, commits: 7, at: start, took: .milliseconds(300))
        #expect(slow.serves(commits: 7, at: start + .seconds(60)), "unchanged: served however old")
        #expect(slow.serves(commits: 8, at: start + .seconds(2)), "changed, within 10 × 300 ms")
        #expect(!slow.serves(commits: 8, at: start + .seconds(4)))
        #expect(slow.serves(commits: UInt64?.none, at: start + .seconds(1)), "no count known: the time still rules")
        let quick = CatalogFigures.Counted(figures: figures, commits: 7, at: start, took: .milliseconds(2))
        #expect(!quick.serves(commits: 8, at: start + .milliseconds(5)), "a quick count is made again on every change")
    }
}
