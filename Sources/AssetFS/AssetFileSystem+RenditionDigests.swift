import Catalog
import PhotoSource
import Posix
import RenditionCache
import SQLiteDatabase

/// Rendition digests (`CatalogStore+RenditionDigests.swift`), made in the background after the
/// content ids, at their low priority: only photos with a copy are read, whole, once per
/// version. A file that changes while it is read gets none (its new version is read again).
extension AssetFileSystem {
    /// The piece of a file hashed at a time: large enough for few reads, small enough to stop
    /// soon when the mount does.
    static let digestPieceBytes = 1 << 20

    /// Makes and stores the digest of every photo that asks for one. Returns how many were stored.
    @discardableResult
    func makePendingRenditionDigests(pageSize: Int = 128, shouldContinue: () -> Bool = { true }) -> Int {
        var after: Int64 = 0, stored = 0
        while shouldContinue() {
            let page = catalog.read { $0.photosLackingRenditionDigest(after: after, limit: pageSize) }
            guard let last = page.last else { break }
            after = last.id
            var batch: [(photo: CatalogStore.PhotoRow, digest: [UInt8]?)] = []
            for row in page {
                guard shouldContinue() else { break }
                switch renditionDigest(of: row.photo, shouldContinue: shouldContinue) {
                case .made(let digest): batch.append((row, digest))
                case .unreadable: batch.append((row, nil))
                case .changed: checkFolder(row.photo.relativePath.parent)  // read again with its new version
                case .later: break
                }
            }
            // What was made of a copy under its own key is the copies' from now on: stored under
            // the shared key before the catalog names it, so a reader (this mount, `assetfs
            // broken`) finds it under one key or the other whichever state of the catalog it sees.
            // A digest nobody else has keeps the photo on its own key (`CatalogStore.lone`); the
            // first copy with the same bytes moves the photos that had it alone too.
            var sharedKeys: [(old: CacheKey, new: CacheKey)] = []
            var earlier: [[UInt8]: [CatalogStore.PhotoRow]] = [:]  // this batch's, by digest
            catalog.read { catalog in
                for case let (row, digest?) in batch {
                    // Photos already sharing it have their renders under its key: only those alone move.
                    let sharing = catalog.photos(withRenditionDigest: digest)
                    let alone = earlier[digest, default: []] + catalog.photos(withRenditionDigest: CatalogStore.lone(digest)).filter { $0.id != row.id }
                    earlier[digest, default: []].append(row)
                    guard !sharing.isEmpty || !alone.isEmpty else { continue }
                    for photo in [row] + alone {
                        sharedKeys += options.specs.map { spec in
                            (RenditionRequest(photo: photo.photo, spec: spec).key, RenditionRequest(photo: photo.photo, renditionDigest: digest, spec: spec).key)
                        }
                    }
                }
            }
            guard pipeline.copy(sharedKeys) else { break }  // made again on the next pass
            do throws(DatabaseError) {
                try catalog.recordRenditionDigests(batch)
                stored += batch.count
            } catch {
                backlog.note(error)
                break
            }
        }
        return stored
    }

    enum DigestOutcome: Equatable {
        case made([UInt8])
        /// It cannot be read (denied, an I/O error): none will be made of this version.
        case unreadable
        /// Not the version the catalog has, before or after the read.
        case changed
        /// Not now (a passing failure, or the mount is stopping).
        case later
    }

    /// The MD5 of `photo`'s whole file, if it is the version the catalog has from the first byte
    /// read to the last (its identity checked on opening and again after).
    func renditionDigest(of photo: Photo, shouldContinue: () -> Bool) -> DigestOutcome {
        let file: OwnedFileDescriptor
        do {
            file = try sourceFiles.open(photo)
        } catch {
            switch error {
            case .changed: return .changed
            case .unavailable(let errno): return errno == .permissionDenied ? .unreadable : .later
            }
        }
        var md5 = MD5()
        var offset: Int64 = 0
        do throws(Errno) {
            while offset < photo.identity.size {
                guard shouldContinue() else { return .later }
                let piece = try file.descriptor.read(upTo: Self.digestPieceBytes, at: offset)
                guard !piece.isEmpty else { return .changed }  // shorter than it was
                md5.update(piece)
                offset += Int64(piece.count)
            }
            guard SourceIdentity(try file.descriptor.status()) == photo.identity else { return .changed }
        } catch {
            return .unreadable
        }
        return .made(md5.finish())
    }
}
