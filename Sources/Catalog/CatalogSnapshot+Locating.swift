import PhotoSource
import Posix
import SQLiteDatabase

/// What `assetfs locate` reads to go from a file of SOURCE back to the mount: why a file is not
/// shown, the still a Live Photo's movie belongs to, and where a photo is in the views.
extension CatalogSnapshot {
    /// Why the file at `relativePath` in SOURCE is not shown, if it was found and skipped.
    public func skipReason(at relativePath: FilePath) -> SkipReason? {
        read(nil) { db throws(DatabaseError) in
            var result: SkipReason?
            try db.query("SELECT s.reason FROM skipped s JOIN folders f ON f.id = s.folder WHERE f.relpath = ? AND s.file_name = ?",
                         [.blob(relativePath.parent.bytes), .blob(relativePath.lastComponent)]) { result = SkipReason(rawValue: $0.text(0)) }
            return result
        }
    }

    /// The still whose `motion.mov` the Live Photo movie `movie` is, once they are paired.
    public func liveStill(ofMovie movie: Int64) -> CatalogStore.PhotoRow? {
        var still: Int64?
        read(()) { db throws(DatabaseError) in
            try db.query("SELECT still FROM live_pairs WHERE movie = ?", [.integer(movie)]) { still = $0.integer(0) }
        }
        guard let still else { return nil }
        return photo(still)
    }

    /// Where photo `id` is a member of the views (`view_members`): each place's view, the names of
    /// the view folders from its top down, and its own name there.
    public func viewPlaces(ofPhoto id: Int64) -> [(view: CatalogView, folders: [[UInt8]], name: [UInt8])] {
        read([]) { db throws(DatabaseError) in
            var members: [(key: Int64, name: [UInt8])] = []
            try db.query("SELECT folder, name FROM view_members WHERE photo = ? ORDER BY id", [.integer(id)]) { members.append(($0.integer(0), $0.blob(1))) }
            var places: [(view: CatalogView, folders: [[UInt8]], name: [UInt8])] = []
            for member in members {
                var folders: [[UInt8]] = [], key = member.key, view: CatalogView?
                // A top folder's members have key -1 - view; a folder's chain ends at parent 0.
                for _ in 0..<64 where key > 0 {
                    var row: (view: Int64, parent: Int64, name: [UInt8])?
                    try db.query("SELECT view, parent, name FROM view_folders WHERE id = ?", [.integer(key)]) { row = ($0.integer(0), $0.integer(1), $0.blob(2)) }
                    guard let row else { break }
                    folders.insert(row.name, at: 0)
                    (view, key) = (CatalogView(rawValue: Int(row.view)), row.parent)
                }
                if key < 0 { view = CatalogView(rawValue: Int(-1 - key)) }
                if key <= 0, let view { places.append((view, folders, member.name)) }
            }
            return places
        }
    }
}
