import PhotoSource
import Posix
import SQLiteDatabase

/// What applying one folder's listing changed.
public struct FolderUpdate: Sendable {
    public var changes: [CatalogChange] = []
    /// Its subfolders now, with whether the catalog knew them already.
    public var subfolders: [(path: FilePath, status: FileStatus, isNew: Bool)] = []
    /// What its subfolders inherit (no wider than this folder's own permissions).
    public var permissions: UInt32 = 0o555
}

extension CatalogStore {
    /// Makes the catalog's copy of folder `relative` what `listing` says, in one transaction:
    /// photos added, removed or changed (a changed photo gets a new version: new file numbers),
    /// the names its files give (`Naming.assetNames`: those a scan afresh gives), subfolders that
    /// disappeared removed with all they held. Numbers of everything else stay as they are.
    public func apply(_ listing: FolderListing, at relative: FilePath, inheritedPermissions: UInt32) throws(DatabaseError) -> FolderUpdate {
        try change { db throws(DatabaseError) in
            var update = try apply(listing, at: relative, inheritedPermissions: inheritedPermissions, db)
            update.changes += try assetFolderChanges(db)
            return update
        }
    }

    /// Removes folder `relative` and everything under it (it is gone from SOURCE).
    public func removeFolder(_ relative: FilePath) throws(DatabaseError) -> [CatalogChange] {
        try change { db throws(DatabaseError) in try removeTree(relative, db) + assetFolderChanges(db) }
    }

    /// Runs `body`, whose changes share one transaction (a whole scan writes a batch of folders
    /// at a time: far fewer pages written than one transaction a folder). Each change is still
    /// all or nothing (a savepoint); readers see the batch when it commits. Throws when the
    /// batch could not be committed: none of its changes were written.
    public func batch(_ body: () -> Void) throws(DatabaseError) {
        reopenIfReadOnly()
        let begun = writer.withLock { db in (try? db.execute("BEGIN IMMEDIATE")) != nil }
        body()
        guard begun else { return }
        try writer.withLock { db throws(DatabaseError) in
            do throws(DatabaseError) { try commits.committing { () throws(DatabaseError) in try db.execute("COMMIT") } } catch {
                try? db.execute("ROLLBACK")
                throw error
            }
        }
    }

    /// One change, all or nothing: its own transaction, or a savepoint inside a batch that is
    /// open (another thread's scan: the background reading of properties writes beside it).
    func change<R>(_ body: (Database) throws(DatabaseError) -> R) throws(DatabaseError) -> R {
        reopenIfReadOnly()
        return try writer.withLock { db throws(DatabaseError) in
            let nested = db.isInTransaction
            // Prepared once (`query`), not parsed for every folder (`execute`).
            try db.query(nested ? "SAVEPOINT change" : "BEGIN IMMEDIATE")
            do throws(DatabaseError) {
                let result = try body(db)
                if nested { try db.query("RELEASE change") } else { try commits.committing { () throws(DatabaseError) in try db.query("COMMIT") } }
                return result
            } catch {
                try? db.execute(nested ? "ROLLBACK TO change" : "ROLLBACK")
                if nested { try? db.execute("RELEASE change") }
                throw error
            }
        }
    }

    /// Records that a whole scan of SOURCE has completed.
    public func markComplete() throws(DatabaseError) {
        try change { db throws(DatabaseError) in try db.query("INSERT OR REPLACE INTO meta(key, value) VALUES ('complete', 1)") }
    }

    // MARK: Inside the transaction

    private func apply(_ listing: FolderListing, at relative: FilePath, inheritedPermissions: UInt32, _ db: Database) throws(DatabaseError) -> FolderUpdate {
        var update = FolderUpdate()
        let status = listing.status
        update.permissions = inheritedPermissions & status.permissions & 0o555
        let ownership = Ownership(userID: status.userID, groupID: status.groupID, permissions: update.permissions,
                                  modificationNanoseconds: status.modificationNanoseconds)
        var folder: Folder! = try folderRow(relative, db)
        let firstSeen = folder == nil
        if firstSeen {
            let parent = relative.isEmpty ? nil : try folderRow(relative.parent, db)?.id
            try db.query("INSERT INTO folders(parent, relpath, uid, gid, permissions, mtime, skipped) VALUES (?, ?, ?, ?, ?, ?, ?)",
                         [parent.map(Database.Value.integer) ?? .null, .blob(relative.bytes), .integer(Int64(ownership.userID)),
                          .integer(Int64(ownership.groupID)), .integer(Int64(ownership.permissions)),
                          .integer(ownership.modificationNanoseconds), .integer(Int64(listing.skipped.count))])
            folder = Folder(id: db.lastInsertedRow, relativePath: relative, ownership: ownership, albumName: nil, photoCount: 0)
        } else if folder.ownership != ownership {
            try db.query("UPDATE folders SET uid = ?, gid = ?, permissions = ?, mtime = ?, skipped = ? WHERE id = ?",
                         [.integer(Int64(ownership.userID)), .integer(Int64(ownership.groupID)), .integer(Int64(ownership.permissions)),
                          .integer(ownership.modificationNanoseconds), .integer(Int64(listing.skipped.count)), .integer(folder.id)])
            update.changes.append(.folderAttributes(folder.id))
        } else {
            try db.query("UPDATE folders SET skipped = ? WHERE id = ?", [.integer(Int64(listing.skipped.count)), .integer(folder.id)])
        }
        try recordSkipped(listing, folder: folder.id, db)
        let wasAlbum = folder.photoCount > 0 && folder.albumName != nil
        let photosChanged = try applyPhotos(listing.photos, folder: folder, firstSeen: firstSeen, db, into: &update.changes)
        let count = listing.photos.count
        if count != folder.photoCount {
            try db.query("UPDATE folders SET photo_count = ? WHERE id = ?", [.integer(Int64(count)), .integer(folder.id)])
        }
        if count > 0, folder.albumName == nil {
            folder.albumName = try uniqueAlbumName(for: relative, db)
            try db.query("UPDATE folders SET album_name = ? WHERE id = ?", [.blob(folder.albumName!), .integer(folder.id)])
        }
        if wasAlbum != (count > 0), let name = folder.albumName {
            update.changes.append(.albumListed(name: name))
        }
        if photosChanged {
            update.changes.append(.albumPhotos(folder.id))
        }
        try applySubfolders(listing.subfolders, of: folder, db, into: &update)
        return update
    }

    /// What the folder holds that is not shown, and why (`assetfs skipped` lists it). A sidecar
    /// added, changed or removed has the folder's photos dated again.
    private func recordSkipped(_ listing: FolderListing, folder: Int64, _ db: Database) throws(DatabaseError) {
        var stored: [[UInt8]: Int64] = [:]
        try db.query("SELECT file_name, stamp FROM skipped WHERE folder = ? AND reason = ?",
                     [.integer(folder), .text(SkipReason.sidecar.rawValue)]) { stored[$0.blob(0)] = $0.integer(1) }
        if stored != listing.sidecars {
            try db.query("INSERT OR IGNORE INTO undated SELECT id FROM photos WHERE folder = ?", [.integer(folder)])
        }
        try db.query("DELETE FROM skipped WHERE folder = ?", [.integer(folder)])
        for (name, reason) in listing.skipped {
            try db.query("INSERT OR REPLACE INTO skipped(folder, file_name, reason, stamp) VALUES (?, ?, ?, ?)",
                         [.integer(folder), .blob(name), .text(reason.rawValue), .integer(listing.sidecars[name] ?? 0)])
        }
    }

    private func folderRow(_ relative: FilePath, _ db: Database) throws(DatabaseError) -> Folder? {
        var result: Folder?
        try db.query("SELECT \(Self.folderColumns) FROM folders WHERE relpath = ?", [.blob(relative.bytes)]) { result = Self.folder($0) }
        return result
    }

    /// Returns whether any photo came, went or changed. The photos of a folder `firstSeen` in this
    /// apply need no changes of their own: no reader has seen a name in it (a first scan is all
    /// such folders, and spent a tenth of its writing on building them).
    private func applyPhotos(_ photos: [Photo], folder: Folder, firstSeen: Bool, _ db: Database,
                             into changes: inout [CatalogChange]) throws(DatabaseError) -> Bool {
        var stored: [PhotoRow] = []
        if !firstSeen {
            try db.query("SELECT \(Self.photoColumns) FROM \(Self.photoTables) WHERE p.folder = ? ORDER BY p.id",
                         [.integer(folder.id)]) { stored.append(Self.photo($0)) }
        }
        // Each stored photo's place in `photos`, by file name.
        let fresh = stored.isEmpty ? [:] : Dictionary(photos.indices.map { (Naming.Key(photos[$0].fileName), $0) }, uniquingKeysWith: { first, _ in first })
        let album = folder.id
        var changed = false
        var kept: [(row: PhotoRow, index: Int)] = []
        for row in stored {
            guard let index = fresh[Naming.Key(row.photo.fileName)] else {
                try db.query("DELETE FROM photos WHERE id = ?", [.integer(row.id)])
                changes += [.assetName(album: album, name: row.assetName), .photo(row.id, version: row.version)]
                changed = true
                continue
            }
            kept.append((row, index))
            let now = photos[index]
            if now.identity != row.photo.identity {
                // A new version: its properties are read again (triggers in CatalogStore+Properties.swift).
                try Self.retire(row, db)
                try db.query("""
                    UPDATE photos SET inode = ?, size = ?, mtime = ?, ctime = ?, uid = ?, gid = ?, permissions = ?, version = version + 1, format = ? WHERE id = ?
                    """, Self.identityValues(now) + [.text(now.format.rawValue), .integer(row.id)])
                changes += [.photoFiles(row.id, originalNames: [row.photo.originalFileName, now.originalFileName]),
                            .assetName(album: album, name: row.assetName), .photo(row.id, version: row.version)]
                changed = true
            } else if (now.userID, now.groupID, now.permissions) != (row.photo.userID, row.photo.groupID, row.photo.permissions) {
                try db.query("UPDATE photos SET uid = ?, gid = ?, permissions = ? WHERE id = ?",
                             [.integer(Int64(now.userID)), .integer(Int64(now.groupID)), .integer(Int64(now.permissions)), .integer(row.id)])
                changes.append(.photo(row.id, version: row.version))
                changes += try Self.memberChanges(ofPhoto: row.id, db)
            }
        }
        var isNew = [Bool](repeating: true, count: photos.count)
        for (_, index) in kept { isNew[index] = false }
        let added = photos.indices.filter { isNew[$0] }
        let formatChanged = kept.contains { photos[$0.index].format != $0.row.photo.format }
        guard !added.isEmpty || kept.count < stored.count || formatChanged else { return changed }
        // The names are those of the files there now, as a scan of this folder afresh would give
        // them: a kept photo whose name another one now shares is renamed.
        let names = Naming.assetNames(files: photos.map { (name: $0.fileName, format: $0.format) }, reserved: reservedAssetNames)
        let renamed = kept.compactMap { row, index in names[index] == row.assetName ? nil : (row, names[index]) }
        try rename(renamed, db, into: &changes)
        for index in added {
            let (photo, name) = (photos[index], names[index])
            try db.query("""
                INSERT INTO photos(folder, file_name, asset_name, inode, size, mtime, ctime, uid, gid, permissions, format) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, [.integer(album), .blob(photo.fileName), .blob(name)] + Self.identityValues(photo) + [.text(photo.format.rawValue)])
            try db.query("INSERT OR IGNORE INTO undated VALUES (?)", [.integer(db.lastInsertedRow)])
            guard !firstSeen else { continue }
            changes.append(.assetName(album: album, name: name))
        }
        return changed || !added.isEmpty || !renamed.isEmpty
    }

    private func applySubfolders(_ subfolders: [(name: [UInt8], status: FileStatus)], of folder: Folder, _ db: Database,
                                 into update: inout FolderUpdate) throws(DatabaseError) {
        var known: Set<[UInt8]> = []
        try db.query("SELECT relpath FROM folders WHERE parent = ?", [.integer(folder.id)]) { known.insert($0.blob(0)) }
        var present: Set<[UInt8]> = []
        for (name, status) in subfolders {
            let path = folder.relativePath.appending(name)
            present.insert(path.bytes)
            update.subfolders.append((path, status, !known.contains(path.bytes)))
        }
        for gone in known.subtracting(present) {
            update.changes += try removeTree(FilePath(bytes: gone), db)
        }
    }

    private func removeTree(_ relative: FilePath, _ db: Database) throws(DatabaseError) -> [CatalogChange] {
        var folders: [Folder] = []
        // The folder and every path below it: relpath = r, or r/ ≤ relpath < r0 ('0' follows '/').
        try db.query("SELECT \(Self.folderColumns) FROM folders WHERE relpath = ? OR (relpath >= ? AND relpath < ?)",
                     [.blob(relative.bytes), .blob(relative.bytes + [0x2F]), .blob(relative.bytes + [0x30])]) { folders.append(Self.folder($0)) }
        var changes: [CatalogChange] = []
        for folder in folders {
            if folder.photoCount > 0, let name = folder.albumName {
                changes += [.albumListed(name: name), .albumPhotos(folder.id)]
            }
            try db.query("DELETE FROM photos WHERE folder = ?", [.integer(folder.id)])
            try db.query("DELETE FROM skipped WHERE folder = ?", [.integer(folder.id)])
            try db.query("DELETE FROM folders WHERE id = ?", [.integer(folder.id)])
        }
        return changes
    }

    /// `Dir／Sub`, or `Dir／Sub (2)` when another folder took that name first; at most 255 bytes.
    private func uniqueAlbumName(for relative: FilePath, _ db: Database) throws(DatabaseError) -> [UInt8] {
        let base = Naming.albumName(components: relative.isEmpty ? [rootName] : relative.components)
        var candidate = Naming.fitted(base), n = 1
        while true {
            var taken = false
            try db.query("SELECT 1 FROM folders WHERE album_name = ?", [.blob(candidate)]) { _ in taken = true }
            if !taken { return candidate }
            n += 1
            let suffix = Array(" (\(n))".utf8)
            candidate = Naming.fitted(base, limit: Naming.maxNameBytes - suffix.count) + suffix
        }
    }

    /// Keeps what version `row` was, and what its properties said of its motion, for the readers
    /// that opened it (`retiredPhoto`).
    private static func retire(_ row: PhotoRow, _ db: Database) throws(DatabaseError) {
        var motion: [Database.Value] = [.integer(row.motionFacts == .unread ? 0 : 1), .null, .null, .null]
        switch row.motionFacts {
        case .embedded(let range): motion[1...2] = [.integer(range.lowerBound), .integer(range.upperBound - range.lowerBound)]
        case .pairedMovie(let movie): motion[3] = .integer(movie)
        case .unread, .none: break
        }
        try db.query("""
            INSERT OR REPLACE INTO retired(photo, version, relpath, inode, size, mtime, ctime, uid, gid, permissions, format,
                                           properties_read, motion_offset, motion_length, movie)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, [.integer(row.id), .integer(row.version), .blob(row.photo.relativePath.bytes)] + identityValues(row.photo)
                + [.text(row.photo.format.rawValue)] + motion)
    }

    private static func identityValues(_ photo: Photo) -> [Database.Value] {
        [.integer(Int64(bitPattern: photo.identity.inode)), .integer(photo.identity.size), .integer(photo.identity.modificationNanoseconds),
         .integer(photo.identity.changeNanoseconds), .integer(Int64(photo.userID)), .integer(Int64(photo.groupID)),
         .integer(Int64(photo.permissions))]
    }
}

extension CatalogSnapshot {
    /// The identities the catalog knows in folder `relative`, by file name: photos whose identity
    /// is unchanged need not be sniffed again.
    public func knownIdentities(in relative: FilePath) -> [[UInt8]: (identity: SourceIdentity, format: SourceFormat)] {
        read([:]) { db throws(DatabaseError) in
            var result: [[UInt8]: (identity: SourceIdentity, format: SourceFormat)] = [:]
            try db.query("""
                SELECT p.file_name, p.inode, p.size, p.mtime, p.ctime, p.format FROM photos p JOIN folders f ON f.id = p.folder WHERE f.relpath = ?
                """, [.blob(relative.bytes)]) { row in
                result[row.blob(0)] = (SourceIdentity(inode: UInt64(bitPattern: row.integer(1)), size: row.integer(2),
                                                      modificationNanoseconds: row.integer(3), changeNanoseconds: row.integer(4)),
                                       SourceFormat(rawValue: row.text(5)) ?? .jpeg)
            }
            return result
        }
    }
}
