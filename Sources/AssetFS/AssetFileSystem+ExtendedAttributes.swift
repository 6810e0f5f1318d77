import Catalog
import MountModel
import Foundation
import PhotoProperties
import PhotoSource
import Posix

/// Extended attributes: the mount's statistics on its root, and on each asset folder its
/// source path (and a Live Photo's movie's, its edit's, and its copies'), why it is broken or shown from a
/// preview (if it is), and its photo's properties.
extension AssetFileSystem {
    public func extendedAttributeNames(_ inode: UInt64, as caller: Credentials) -> [[UInt8]] {
        (try? request { .success(attributeNames(inode, as: caller, in: $0)) }.get()) ?? []
    }

    private func attributeNames(_ inode: UInt64, as caller: Credentials, in catalog: borrowing CatalogSnapshot) -> [[UInt8]] {
        guard let node = try? resolve(inode, as: caller, in: catalog).get() else { return [] }
        if node == .root { return [MountLayout.statsAttribute, MountLayout.sizesAttribute] }
        guard node.isAssetFolder, let row = tree.photo(for: node, in: catalog) else { return [] }
        let properties = properties(of: row, as: caller, in: catalog)
        return [MountLayout.sourceAttribute] + (liveMovie(of: row, in: catalog) == nil ? [] : [MountLayout.motionSourceAttribute])
            + (row.edit == nil ? [] : [MountLayout.editedAttribute])
            + (copies(of: row, properties, in: catalog).isEmpty ? [] : [MountLayout.duplicatesAttribute])
            + (failure(of: row, in: catalog) == nil ? [] : [MountLayout.errorAttribute])
            + PropertyAttribute.allCases.filter { $0.value(properties) != nil }.map(\.name)
    }

    public func extendedAttribute(_ inode: UInt64, name: [UInt8], as caller: Credentials) -> Result<[UInt8], Errno> {
        request { attribute(inode, name: name, as: caller, in: $0) }
    }

    private func attribute(_ inode: UInt64, name: [UInt8], as caller: Credentials, in catalog: borrowing CatalogSnapshot) -> Result<[UInt8], Errno> {
        let resolved = resolve(inode, as: caller, in: catalog)
        if case .failure(.permissionDenied) = resolved { return .failure(.permissionDenied) }
        guard let node = try? resolved.get() else { return .failure(.notFound) }
        switch name {
        case MountLayout.statsAttribute where node == .root:
            return .success(Array(statisticsJSON(in: catalog).utf8))
        case MountLayout.sizesAttribute where node == .root:
            return .success(Array(options.sizes.description.utf8))
        case _ where !node.isAssetFolder:
            return .failure(.noAttribute)
        case MountLayout.sourceAttribute:
            return tree.photo(for: node, in: catalog).map { .success($0.photo.relativePath.bytes) } ?? .failure(.notFound)
        case MountLayout.motionSourceAttribute:
            return tree.photo(for: node, in: catalog).flatMap { liveMovie(of: $0, in: catalog) }.map { .success($0.relativePath.bytes) } ?? .failure(.noAttribute)
        case MountLayout.editedAttribute:
            return tree.photo(for: node, in: catalog).flatMap { catalog.edit(of: $0) }.map { .success($0.photo.relativePath.bytes) } ?? .failure(.noAttribute)
        case MountLayout.duplicatesAttribute:
            guard let row = tree.photo(for: node, in: catalog) else { return .failure(.notFound) }
            let copies = copies(of: row, properties(of: row, as: caller, in: catalog), in: catalog)
            return copies.isEmpty ? .failure(.noAttribute) : .success(Array(copies.map(\.bytes).joined(separator: [0x0A])))
        case MountLayout.errorAttribute:
            return tree.photo(for: node, in: catalog).flatMap { failure(of: $0, in: catalog) }.map { .success(Array($0.utf8)) } ?? .failure(.noAttribute)
        default:
            guard let attribute = PropertyAttribute.allCases.first(where: { $0.name == name }) else { return .failure(.noAttribute) }
            guard let row = tree.photo(for: node, in: catalog) else { return .failure(.notFound) }
            return attribute.value(properties(of: row, as: caller, in: catalog)).map { .success($0) } ?? .failure(.noAttribute)
        }
    }

    /// The other files of SOURCE with the same picture.
    private func copies(of row: CatalogStore.PhotoRow, _ properties: CatalogStore.Properties, in catalog: borrowing CatalogSnapshot) -> [FilePath] {
        properties.contentID.map { catalog.copies(of: $0, besides: row.id) } ?? []
    }

    /// A Live Photo still's movie, the file its `motion.mov` shows.
    private func liveMovie(of row: CatalogStore.PhotoRow, in catalog: borrowing CatalogSnapshot) -> Photo? {
        guard case .movie(let movie)? = catalog.motion(of: row) else { return nil }
        return movie.photo
    }

    public func statisticsJSON(in catalog: borrowing CatalogSnapshot) -> String {
        let figures = catalogFigures.figures(in: catalog), counts = figures.counts, skipped = figures.skipped
        let cacheBytes = (try? cache.store?.statistics().bytes) ?? 0
        func dated(_ sources: DateSource...) -> Int { sources.reduce(0) { $0 + (figures.dates[$1] ?? 0) } }
        let fields: [(String, Int)] = [
            ("albums", counts.albums), ("assets", counts.photos), ("skipped", counts.skipped),
            ("renders", statistics.renders.load(ordering: .relaxed)),
            ("render_failures", statistics.renderFailures.load(ordering: .relaxed)),
            ("broken", brokenAssets(in: catalog).count),
            ("cache_hits", statistics.cacheHits.load(ordering: .relaxed)),
            ("cache_misses", statistics.cacheMisses.load(ordering: .relaxed)),
            ("cache_bytes", Int(cacheBytes)),
            ("folders_read", statistics.foldersRead.load(ordering: .relaxed)),
            ("source_online", isSourceOnline ? 1 : 0),
            ("catalog_complete", catalog.isComplete ? 1 : 0), ("catalog_pending", backlog.pendingCount),
            ("videos", counts.videos), ("live_photos", counts.livePhotos), ("motion_photos", counts.motionPhotos),
            ("posters", statistics.posters.load(ordering: .relaxed)),
            ("dates_exif", dated(.exifOriginal, .exifDigitized)), ("dates_xmp", dated(.xmp)), ("dates_sidecar", dated(.sidecar)),
            ("dates_video", dated(.quickTime, .movieHeader)), ("dates_filename", dated(.fileName)), ("dates_mtime", dated(.modificationTime)),
        ] + SkipReason.allCases.map { ($0.statisticsKey, skipped[$0] ?? 0) }
        return "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + ",\"catalog_error\":\(JSON.string(backlog.lastError))}"
    }
}
