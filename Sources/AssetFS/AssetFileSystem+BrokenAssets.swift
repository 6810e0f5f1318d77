import Catalog
import MountModel
import PhotoSource
import Posix
import RenditionCache

/// The broken assets: those whose asset folder has a `user.assetfs.error` now (cannot be shown, or
/// shown from a preview the file carries), whether this mount found it or an earlier one stored it. A state, not a count of events, so `stats` and
/// `assetfs broken` say the same after a remount.
extension AssetFileSystem {
    public struct BrokenAsset: Sendable, Equatable {
        /// `groups/<album>/<asset>`, inside the mount.
        public var mountPath: FilePath
        /// What its `user.assetfs.error` says.
        public var reason: String
    }

    /// Every broken asset, in mount path order. The candidates are the photos of the known
    /// failures (this mount's, then the store's), an edit standing for its original's asset; each
    /// is kept if it is still shown as it was when it failed, with the reason its asset folder
    /// gives (`failure(of:in:)`, the one test).
    public func brokenAssets(in catalog: borrowing CatalogSnapshot) -> [BrokenAsset] {
        var seen = Set<Int64>()
        var result: [BrokenAsset] = []
        let rows = pipeline.failedKeys().compactMap { KeyFields.parse($0)?.subject }.flatMap { RenditionRequest.photos(of: $0, in: catalog) }
        for failed in rows {
            let row = catalog.original(ofEdit: failed.id) ?? failed
            guard seen.insert(row.id).inserted,
                  catalog.photo(inFolder: row.folder, named: row.assetName)?.id == row.id,  // not a Live Photo's hidden movie
                  let album = catalog.folder(row.folder)?.albumName,
                  let reason = failure(of: row, in: catalog) else { continue }
            result.append(BrokenAsset(mountPath: MountLayout.assetPath(album: album, asset: row.assetName), reason: reason))
        }
        return result.sorted { $0.mountPath.bytes.lexicographicallyPrecedes($1.mountPath.bytes) }
    }

    /// Why the asset of `row` cannot be shown, or is shown from a preview its file carries, once
    /// a rendition of it has been tried: what its asset folder's `user.assetfs.error` says. Judged
    /// on the file its renditions are made from (its edit, once paired).
    func failure(of row: CatalogStore.PhotoRow, in catalog: borrowing CatalogSnapshot) -> String? {
        let shown = catalog.renditionSource(of: row)
        return options.specs.lazy.compactMap { [self] spec in
            pipeline.knownReason(RenditionRequest(shown, spec: spec))
        }.first
    }
}
