import SQLiteDatabase

/// Rendition digests (issue 32): copies of one photo share their renditions in the cache. The
/// content id cannot be their key (it leaves out what changes the rendered pixels: JPEG tables,
/// HEIF transforms, a RAW's previews, the orientation), so a photo whose content id another photo
/// has is read once more, whole, and the MD5 of its file kept in `properties.rendition_digest`:
/// NULL, no copy known (the rendition key is the photo's own, and it costs nothing more); an empty
/// blob, a copy is known and the digest is still to be made; 16 bytes, the digest, which another
/// photo's file has too; 17 bytes, a 1 and the digest, which no other photo's file has (yet: the
/// same picture with other bytes, say tags written into one copy), so the photo keeps its own
/// key and no render of it is moved to a key nobody shares; one byte, none can be made (the file
/// cannot be read). It is kept with the properties, so a photo changed loses
/// it with them (`propertiesTriggers`) and is keyed as itself until it is read again.
///
/// Videos are left out: a poster reads a few frames of the file, and reading a 300 MB video
/// whole to share one would cost far more than it saves (a photo's render reads it all anyway).
extension CatalogStore {
    /// The photos of a digest (the cache asks whether one is still there), and those still to be
    /// read, found without a scan; partial, so the photos without a copy are not in it.
    static let renditionDigestIndex = """
        CREATE INDEX properties_by_rendition_digest ON properties(rendition_digest, photo) WHERE rendition_digest IS NOT NULL;
        """

    /// What a catalog of version 12 runs to gain the column, with its copies already known
    /// asking for a digest.
    static let renditionDigestUpgrade = """
        ALTER TABLE properties ADD COLUMN rendition_digest BLOB;
        \(renditionDigestIndex)
        UPDATE properties SET rendition_digest = x'' WHERE \(digestible("photo")) AND content_id IN
            (SELECT content_id FROM properties WHERE length(content_id) > 0 GROUP BY content_id HAVING count(*) > 1);
        """

    /// An SQL condition: the photo whose id is `column` may have a digest (it is no video). One
    /// look-up by id a row: `column IN (SELECT id FROM photos …)` listed every photo, a scan of
    /// the library for each content id recorded (the ids pass grew with the square of it).
    private static func digestible(_ column: String) -> String {
        "(SELECT format FROM photos WHERE id = \(column)) NOT IN (\(videoFormats))"
    }

    private static let noDigest: [UInt8] = [0]

    /// How a digest no other photo's file has is stored.
    public static func lone(_ digest: [UInt8]) -> [UInt8] { [1] + digest }

    /// The digest a stored value is, if it is one that photos share.
    static func renditionDigest(_ stored: [UInt8]?) -> [UInt8]? {
        stored?.count == 16 ? stored : nil
    }

    /// Every photo (not video) of content id `contentID` asks for a digest, once the content has copies.
    static func wantRenditionDigests(ofContent contentID: [UInt8], _ db: Database) throws(DatabaseError) {
        try db.query("""
            UPDATE properties SET rendition_digest = x'' WHERE content_id = ?1 AND rendition_digest IS NULL AND \(digestible("photo"))
              AND (SELECT count(*) FROM properties WHERE content_id = ?1) > 1
            """, [.blob(contentID)])
    }

    /// Stores the digest made of each photo's file, for the version it was made of (a photo
    /// changed since is passed over: it is read again anyway); nil stores "none can be made". A
    /// digest another photo has, alone or shared, is shared by them all from now on; one nobody
    /// else has is stored as alone (`lone`).
    public func recordRenditionDigests(_ batch: [(photo: PhotoRow, digest: [UInt8]?)]) throws(DatabaseError) {
        guard !batch.isEmpty else { return }
        try change { db throws(DatabaseError) in
            for (photo, digest) in batch {
                var stored = Self.noDigest
                if let digest {
                    var others: Int64 = 0
                    try db.query("SELECT count(*) FROM properties WHERE rendition_digest IN (?1, ?2) AND photo != ?3",
                                 [.blob(digest), .blob(Self.lone(digest)), .integer(photo.id)]) { others = $0.integer(0) }
                    if others > 0 {
                        try db.query("UPDATE properties SET rendition_digest = ?1 WHERE rendition_digest = ?2", [.blob(digest), .blob(Self.lone(digest))])
                    }
                    stored = others > 0 ? digest : Self.lone(digest)
                }
                try db.query("UPDATE properties SET rendition_digest = ? WHERE photo = ? AND version = ? AND rendition_digest = x''",
                             [.blob(stored), .integer(photo.id), .integer(photo.version)])
            }
        }
    }
}

extension CatalogSnapshot {
    /// Photos with a copy whose digest is still to be made, after photo id `after`, in id order.
    public func photosLackingRenditionDigest(after: Int64, limit: Int) -> [CatalogStore.PhotoRow] {
        photosWithProperties(where: "q.rendition_digest = x''", after: after, limit: limit)
    }

    /// The photos whose file has digest `digest`, stored as it is (shared, or `lone`), in id
    /// order: one indexed statement.
    public func photos(withRenditionDigest digest: [UInt8]) -> [CatalogStore.PhotoRow] {
        read([]) { db throws(DatabaseError) in
            var result: [CatalogStore.PhotoRow] = []
            try db.query("SELECT \(CatalogStore.photoColumns) FROM \(CatalogStore.photoTables) WHERE q.rendition_digest = ? ORDER BY q.photo",
                         [.blob(digest)]) { result.append(CatalogStore.photo($0)) }
            return result
        }
    }
}
