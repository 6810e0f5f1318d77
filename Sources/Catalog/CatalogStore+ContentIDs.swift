import PhotoSource
import Posix
import SQLiteDatabase

/// Content ids (`ContentID`), kept in `properties.content_id` (indexed): made in the background in
/// a pass of their own after the properties (a request that needs a photo's properties at once
/// never waits for its picture to be hashed), looked up by `ids/<id>`, and telling copies apart.
/// NULL: not made yet; an empty blob: none can be made (the file cannot be read).
extension CatalogStore {
    /// Photos by content id: `ids/<id>` is one look-up (the lowest photo id first when copies
    /// share it), and the photos still without one are found by it too (NULLs first).
    static let contentIDIndex = "CREATE INDEX properties_by_content ON properties(content_id, photo);"

    /// Stores the id made of each photo, for the version it was made of (a photo changed since is
    /// passed over: it is read again anyway); nil stores "none can be made". A photo found to be
    /// a copy leaves the views (`CatalogStore+Duplicates.swift`) and every copy asks for a
    /// rendition digest (`CatalogStore+RenditionDigests.swift`). Returns what changed.
    @discardableResult
    public func recordContentIDs(_ batch: [(photo: PhotoRow, id: ContentID?)]) throws(DatabaseError) -> [CatalogChange] {
        guard !batch.isEmpty else { return [] }
        return try change { db throws(DatabaseError) in
            var recorded: Set<[UInt8]> = []
            for (photo, id) in batch {
                try db.query("UPDATE properties SET content_id = ? WHERE photo = ? AND version = ?",
                             [.blob(id?.digest ?? []), .integer(photo.id), .integer(photo.version)])
                if let id, db.changes == 1 { recorded.insert(id.digest) }
            }
            for digest in recorded {
                try Self.updateCopies(ofContent: digest, onlyIfCopies: true, db)
                try Self.wantRenditionDigests(ofContent: digest, db)
            }
            return try assetFolderChanges(db)
        }
    }
}

extension CatalogSnapshot {
    /// Photos whose properties are read and whose id is not made yet, after photo id `after`, in
    /// id order.
    public func photosLackingContentID(after: Int64, limit: Int) -> [CatalogStore.PhotoRow] {
        photosWithProperties(where: "q.content_id IS NULL", after: after, limit: limit)
    }

    /// Photos whose properties are read and meet `condition` (on properties `q`), after photo id
    /// `after`, in id order: what a background pass takes next.
    func photosWithProperties(where condition: String, after: Int64, limit: Int) -> [CatalogStore.PhotoRow] {
        read([]) { db throws(DatabaseError) in
            var result: [CatalogStore.PhotoRow] = []
            try db.query("""
                SELECT \(CatalogStore.photoColumns) FROM properties q JOIN photos p ON p.id = q.photo JOIN folders f ON f.id = p.folder
                WHERE \(condition) AND q.photo > ? ORDER BY q.photo LIMIT ?
                """, [.integer(after), .integer(Int64(limit))]) { result.append(CatalogStore.photo($0)) }
            return result
        }
    }

    /// The photo whose picture has content id `id`: of copies, the one of lowest id (the first
    /// found, and the one that keeps it the longest); never a Live Photo's movie. One indexed statement.
    public func photo(withContentID id: ContentID) -> Int64? {
        read(nil) { db throws(DatabaseError) in
            var result: Int64?
            try db.query("SELECT photo FROM properties WHERE content_id = ? AND \(CatalogStore.shown("photo")) ORDER BY photo LIMIT 1",
                         [.blob(id.digest)]) { result = $0.integer(0) }
            return result
        }
    }

    /// The other shown photos whose picture has content id `id` (copies in other folders), in
    /// path order, but photo `photo`: one indexed statement.
    public func copies(of id: ContentID, besides photo: Int64) -> [FilePath] {
        read([]) { db throws(DatabaseError) in
            var result: [FilePath] = []
            try db.query("""
                SELECT f.relpath, p.file_name FROM properties q JOIN photos p ON p.id = q.photo JOIN folders f ON f.id = p.folder
                WHERE q.content_id = ? AND q.photo != ? AND \(CatalogStore.shown("q.photo")) ORDER BY f.relpath, p.file_name
                """, [.blob(id.digest), .integer(photo)]) { result.append(FilePath(bytes: $0.blob(0)).appending($0.blob(1))) }
            return result
        }
    }
}
