import Catalog
import PhotoSource

extension MountTree {
    /// Every path of the mount, from its root, that shows photo `row` (what `assetfs locate`
    /// prints): its asset folder in groups/, its file in each size's view, its member asset
    /// folders in the views (dates/ among them), and `ids/<id>` where its id leads to it. A Live Photo's movie
    /// is shown only as its still's `motion.mov`, an edit as its original's `edited.*`.
    public func paths(showing row: CatalogStore.PhotoRow, in catalog: borrowing CatalogSnapshot) -> [[UInt8]] {
        if let still = catalog.liveStill(ofMovie: row.id) {
            return paths(ofAssetFolder: still, in: catalog).prefix(1).map { $0 + [0x2F] + MountLayout.liveMotion }
        }
        if let original = catalog.original(ofEdit: row.id) {
            return paths(ofAssetFolder: original, in: catalog).prefix(1).map { $0 + [0x2F] + row.photo.editedFileName }
        }
        return paths(ofAssetFolder: row, in: catalog)
    }

    private func paths(ofAssetFolder row: CatalogStore.PhotoRow, in catalog: borrowing CatalogSnapshot) -> [[UInt8]] {
        guard let album = catalog.folder(row.folder)?.albumName else { return [] }
        func path(_ components: [[UInt8]]) -> [UInt8] { Array(components.joined(separator: [0x2F])) }
        var result = [MountLayout.assetPath(album: album, asset: row.assetName).bytes]
        result += sizes.all.map { path([$0.viewName, album, MountLayout.viewFileName(row.assetName)]) }
        result += catalog.viewPlaces(ofPhoto: row.id).filter { views.contains($0.view) }.map { place in
            path([Array(MountLayout.viewName(place.view).utf8)] + place.folders + [place.name])
        }
        let properties = catalog.properties(ofPhoto: row.id)
        if let id = properties?.contentID, catalog.photo(withContentID: id) == row.id {
            result.append(path([MountLayout.ids, Array(id.description.utf8)]))
        }
        return result
    }
}
