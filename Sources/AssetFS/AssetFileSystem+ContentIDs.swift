import Catalog
import MountModel
import PhotoProperties
import PhotoSource
import Posix
import SQLiteDatabase

/// Content ids, made in the background after the properties, at their low priority, `pageSize`
/// photos to a transaction: a request that needs a photo's properties at once (listing its asset
/// folder, one of its attributes) never waits for its picture to be hashed, and dates appear as
/// fast as before. Nothing shown waits for an id but `ids/` and copies, so its transactions are
/// large: at 7,000-9,000 ids a second, pages of 128 were 60 commits a second, each making every
/// reader read again.
extension AssetFileSystem {
    /// Makes and stores the id of every photo whose properties are read and whose id is not made
    /// yet (a copy found leaves the views: `invalidate` is told). Returns how many were stored.
    @discardableResult
    func makePendingContentIDs(pageSize: Int = 1024, shouldContinue: () -> Bool = { true },
                               invalidate: ([Invalidation]) -> Void = { _ in }) -> Int {
        var after: Int64 = 0, stored = 0
        while shouldContinue() {
            let page = catalog.read { $0.photosLackingContentID(after: after, limit: pageSize) }
            guard let last = page.last else { break }
            after = last.id
            var batch: [(photo: CatalogStore.PhotoRow, id: ContentID?)] = []
            for row in page {
                guard shouldContinue() else { break }
                do {
                    let file = try sourceFiles.open(row.photo)
                    batch.append((row, ContentID.read(from: file.descriptor, format: row.photo.format)))
                } catch {
                    switch error {
                    case .changed: checkFolder(row.photo.relativePath.parent)  // read again with its new version
                    case .unavailable(let errno): if errno == .permissionDenied { batch.append((row, nil)) }  // else passing: next pass
                    }
                }
            }
            do throws(DatabaseError) {
                invalidate(tree.invalidations(for: try catalog.recordContentIDs(batch)))
                stored += batch.count
            } catch {
                backlog.note(error)
                break
            }
        }
        return stored
    }
}
