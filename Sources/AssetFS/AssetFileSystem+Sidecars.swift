import Catalog
import PhotoProperties
import PhotoSource
import Posix

extension AssetFileSystem {
    /// What the sidecar of a photo says: the first of the names its sidecar may have
    /// (`SidecarNames.candidates`) that is among `sidecars`, its folder's (`sidecarNames`), and
    /// says something, else the Takeout JSON of the folder whose `title` is the photo's file name.
    func sidecar(of row: CatalogStore.PhotoRow, among sidecars: Set<[UInt8]>) -> SidecarMetadata? {
        guard !sidecars.isEmpty else { return nil }
        let read = { (name: [UInt8]) in
            self.sourceFiles.sidecar(name, of: row.photo, limit: SidecarMetadata.maxBytes).flatMap(SidecarMetadata.init)
        }
        for name in SidecarNames.candidates(for: row.photo.fileName) where sidecars.contains(name) {
            if let found = read(name) { return found }
        }
        let titled = takeoutTitles.sidecar(titled: row.photo.fileName, inFolder: row.folder, among: sidecars) { name in
            self.sourceFiles.sidecar(name, of: row.photo, limit: SidecarMetadata.maxBytes).flatMap(SidecarMetadata.takeoutTitle)
        }
        return titled.flatMap(read)
    }
}

/// The photo each Takeout JSON of a folder names in its `title`, for JSONs named so that no rule
/// pairs them. Built once for a folder, when a photo of it has no sidecar by name, and kept for
/// the last folder asked about (the background reads a folder's photos one after another); a
/// folder whose sidecars are others gets its own again, and each background pass (which follows
/// every scan, so every changed JSON) starts afresh.
final class TakeoutTitles: Sendable {
    private struct Folder {
        var id: Int64
        var sidecars: Set<[UInt8]>
        /// The JSON named by each title (the first by name where titles repeat).
        var byTitle: [[UInt8]: [UInt8]]
    }
    private let last = Locked<Folder?>(nil)

    /// The sidecar of folder `id` (whose sidecars are `sidecars`) whose title is `fileName`;
    /// `title` reads a JSON's.
    func sidecar(titled fileName: [UInt8], inFolder id: Int64, among sidecars: Set<[UInt8]>, title: ([UInt8]) -> [UInt8]?) -> [UInt8]? {
        if let known = last.withLock({ $0 }), known.id == id, known.sidecars == sidecars { return known.byTitle[fileName] }
        var byTitle: [[UInt8]: [UInt8]] = [:]
        for name in sidecars.filter(SidecarNames.isJSON).sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            if let title = title(name), byTitle[title] == nil { byTitle[title] = name }
        }
        last.withLock { $0 = Folder(id: id, sidecars: sidecars, byTitle: byTitle) }
        return byTitle[fileName]
    }

    /// Drops the map: the folder's JSONs are read again when next needed.
    func forget() { last.withLock { $0 = nil } }
}
