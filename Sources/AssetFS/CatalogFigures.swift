import Catalog
import PhotoSource
import Posix

/// The catalog's figures in `user.assetfs.stats` (albums, assets, dates by source, files not
/// shown), kept between reads. Counting them scans every photo and its properties: at a million
/// photos, hundreds of megabytes through the page cache. A poll of the stats every 0.5 s (as
/// bench/views-complete.py's) made that 307 KB of catalog reads a photo during a first mount.
/// So they are counted again only once the catalog has changed, and when counting is slow (over
/// `slowCount`) no sooner than `restFactor` times its last time after it: polling costs at most
/// about a tenth of a core however often it comes, and the figures then lag by as long.
final class CatalogFigures: Sendable {
    struct Figures: Sendable {
        var counts: CatalogStore.Counts
        var dates: [DateSource: Int]
        var skipped: [SkipReason: Int]
    }

    struct Counted: Sendable {
        var figures: Figures
        /// The commit count they were read at (nil: unknown).
        var commits: UInt64?
        var at: ContinuousClock.Instant
        var took: Duration

        func serves(commits now: UInt64?, at instant: ContinuousClock.Instant) -> Bool {
            if let now, now == commits { return true }
            return took > CatalogFigures.slowCount && instant < at + took * CatalogFigures.restFactor
        }
    }

    static let slowCount = Duration.milliseconds(20)
    static let restFactor = 10
    private let last = Locked<Counted?>(nil)

    /// The figures of `catalog`, or of an earlier state of it as said above.
    func figures(in catalog: borrowing CatalogSnapshot) -> Figures {
        let commits = catalog.commitCount, start = ContinuousClock.now
        if let counted = last.withLock({ $0 }), counted.serves(commits: commits, at: start) { return counted.figures }
        let figures = Figures(counts: catalog.counts, dates: catalog.dateCounts(), skipped: catalog.skippedByReason)
        // Not kept from a failed read; kept with no count if a commit came meanwhile (the
        // snapshot's state is then not known by its count).
        guard !catalog.hasFailed else { return figures }
        let counted = Counted(figures: figures, commits: catalog.commitCount, at: start, took: .now - start)
        last.withLock { $0 = counted }
        return figures
    }
}
