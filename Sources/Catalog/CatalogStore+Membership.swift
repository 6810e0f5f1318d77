import PhotoSource
import SQLiteDatabase

/// A photo's members in the views that follow from its own properties (`ViewPath.of`: all but
/// events), kept in step by `record`: what its properties say now is diffed against the members
/// it has (found by `view_members_by_photo`), and only what changed is written. A Live Photo's
/// movie, once paired, is a member of nothing (`live_movie_hidden`); its still shows what the
/// movie shares with it (`pairLivePhoto`).
extension CatalogStore {
    /// Makes photo `photo`'s members those `paths` ask for, each called by `assetName` (made
    /// unique in its folder): members added first, then those no longer asked for removed, so a
    /// folder that stays (a year a photo moves within) keeps its id.
    static func updateMembers(photo: Int64, assetName: [UInt8], paths: [ViewPath], _ db: Database) throws(DatabaseError) {
        var current: [Int64: CatalogView] = [:]
        try db.query("""
            SELECT m.folder, coalesce(f.view, -1 - m.folder) FROM view_members m LEFT JOIN view_folders f ON f.id = m.folder WHERE m.photo = ?
            """, [.integer(photo)]) { row in
            if let view = CatalogView(rawValue: Int(row.integer(1))) { current[row.integer(0)] = view }
        }
        var wanted: Set<Int64> = []
        for path in paths {
            let (folder, holdsFolders) = try viewFolder(path, db)
            wanted.insert(folder.memberKey)
            if current[folder.memberKey] == nil { try insertMember(photo: photo, folder: folder, assetName: assetName, holdsFolders: holdsFolders, db) }
        }
        for (key, view) in current where view.isPerPhoto && !wanted.contains(key) {
            try db.query("DELETE FROM view_members WHERE folder = ? AND photo = ?", [.integer(key), .integer(photo)])
        }
    }

    /// Photo `id`'s members made again from its stored properties (a Live Photo's still once the
    /// movie shared its place), or none if they are not read, it is hidden or a copy of another.
    static func updateMembers(ofPhoto id: Int64, _ db: Database) throws(DatabaseError) {
        var stored: (assetName: [UInt8], format: SourceFormat, hidden: Bool)?
        try db.query("SELECT asset_name, format, \(represents("photos.id")) FROM photos WHERE id = ?", [.integer(id)]) {
            stored = ($0.blob(0), SourceFormat(rawValue: $0.text(1)) ?? .jpeg, $0.integer(2) == 0)
        }
        var properties: Properties?
        try db.query("SELECT \(PropertiesColumn.selection) FROM properties WHERE photo = ?", [.integer(id)]) {
            properties = PropertiesColumn.properties(NamedRow($0))
        }
        guard let stored else { return }
        let paths = properties.map { stored.hidden ? [] : ViewPath.of($0, isVideo: stored.format.isVideo) } ?? []
        try updateMembers(photo: id, assetName: stored.assetName, paths: paths, db)
    }

    /// The folder `path` leads to, its missing folders made, and whether it holds subfolders (a
    /// view's top folder may).
    private static func viewFolder(_ path: ViewPath, _ db: Database) throws(DatabaseError) -> (ViewFolder, holdsFolders: Bool) {
        var folder: (id: Int64, holdsFolders: Bool) = (0, true)
        for name in path.folders {
            folder = try folderRow(view: path.view, parent: folder.id, name: name, create: true, db) ?? folder
        }
        return (ViewFolder(path.view, id: folder.id), folder.holdsFolders)
    }
}
