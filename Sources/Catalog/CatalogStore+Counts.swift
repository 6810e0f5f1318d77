import PhotoSource
import Posix
import SQLiteDatabase

/// What the catalog holds in numbers (for stats), and its lists of everything: every photo
/// (for warm and prune) and every file not shown (for `assetfs skipped`).
extension CatalogStore {
    /// What the mount shows: albums, assets (a Live Photo's movie is part of its still's asset,
    /// not one of its own), and of those the videos, Live Photos and Motion Photos; and the files
    /// not shown.
    public struct Counts: Sendable, Equatable {
        public var albums = 0
        public var photos = 0
        public var skipped = 0
        public var videos = 0
        public var livePhotos = 0
        public var motionPhotos = 0
    }
}

extension CatalogSnapshot {
    public var counts: CatalogStore.Counts {
        read(CatalogStore.Counts()) { db throws(DatabaseError) in
            var counts = CatalogStore.Counts()
            try db.query("SELECT total(photo_count > 0), total(skipped) FROM folders") { row in
                counts.albums = Int(row.integer(0))
                counts.skipped = Int(row.integer(1))
            }
            try db.query("""
                SELECT count(*), total(p.format IN (\(CatalogStore.videoFormats))), total(q.motion_offset IS NOT NULL)
                FROM photos p LEFT JOIN properties q ON q.photo = p.id WHERE \(CatalogStore.shown("p.id"))
                """) { row in
                counts.photos = Int(row.integer(0))
                counts.videos = Int(row.integer(1))
                counts.motionPhotos = Int(row.integer(2))
            }
            try db.query("SELECT count(*) FROM live_pairs") { counts.livePhotos = Int($0.integer(0)) }
            return counts
        }
    }

    /// Whether a whole scan of SOURCE has completed once (else the tree is still filling in).
    public var isComplete: Bool {
        read(false) { db throws(DatabaseError) in
            var complete = false
            try db.query("SELECT value FROM meta WHERE key = 'complete'") { complete = $0.integer(0) == 1 }
            return complete
        }
    }
}

extension CatalogStore {
    /// The video formats, as an SQL list of `photos.format` values.
    static let videoFormats = SourceFormat.allCases.filter(\.isVideo).map { "'\($0.rawValue)'" }.joined(separator: ", ")
}

extension CatalogSnapshot {
    /// What every asset's renditions are made from (`renditionSource(of:)`), album by album, in
    /// pages (for `assetfs warm`).
    public func allRenditionSources() -> [CatalogStore.PhotoRow] {
        var result: [CatalogStore.PhotoRow] = []
        var album: Int64 = 0
        while true {
            let albums = albums(after: album, limit: 256)
            guard let last = albums.last else { return result }
            for folder in albums {
                var after: Int64 = 0
                while true {
                    let page = photos(inFolder: folder.id, after: after, limit: 1024)
                    guard let lastPhoto = page.last else { break }
                    for row in page { result.append(renditionSource(of: row)) }
                    after = lastPhoto.id
                }
            }
            album = last.id
        }
    }
}

extension CatalogSnapshot {
    /// How many files are not shown, by reason.
    public var skippedByReason: [SkipReason: Int] {
        read([:]) { db throws(DatabaseError) in
            var result: [SkipReason: Int] = [:]
            try db.query("SELECT reason, count(*) FROM skipped GROUP BY reason") { row in
                if let reason = SkipReason(rawValue: row.text(0)) { result[reason] = Int(row.integer(1)) }
            }
            return result
        }
    }

    /// The names of the sidecars (`SidecarNames`) in folder `id`: only these are opened when
    /// its photos' properties are read.
    public func sidecarNames(inFolder id: Int64) -> Set<[UInt8]> {
        read([]) { db throws(DatabaseError) in
            var result = Set<[UInt8]>()
            try db.query("SELECT file_name FROM skipped WHERE folder = ? AND reason = ?", [.integer(id), .text(SkipReason.sidecar.rawValue)]) {
                result.insert($0.blob(0))
            }
            return result
        }
    }

    /// Every file not shown (path in SOURCE, reason), in path order, for `assetfs skipped`.
    public func forEachSkipped(_ body: (FilePath, SkipReason) -> Void) {
        read(()) { db throws(DatabaseError) in
            try db.query("SELECT f.relpath, s.file_name, s.reason FROM skipped s JOIN folders f ON f.id = s.folder ORDER BY f.relpath, s.file_name") { row in
                body(FilePath(bytes: row.blob(0)).appending(row.blob(1)), SkipReason(rawValue: row.text(2)) ?? .notAPhoto)
            }
        }
    }
}
