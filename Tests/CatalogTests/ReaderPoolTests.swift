import Dispatch
import Glibc
import Posix
import SQLiteDatabase
import Testing
@testable import Catalog

/// The catalog's readers are a pool: a request holding its snapshot does not hold up another
/// thread's reads (one connection behind a mutex did), and reads nested in a request stay on its
/// connection and snapshot.
@Suite struct ReaderPoolTests {
    static func scratchCatalog() throws -> (CatalogStore, FilePath) {
        var template = Array("/tmp/assetfs-readers-XXXXXX".utf8CString)
        let folder = FilePath(String(cString: mkdtemp(&template)!))
        return (try CatalogStore(path: folder.appending(Array("catalog.sqlite".utf8)), source: FilePath("/photos/P"), reservedAssetNames: []), folder)
    }

    @Test func aRequestInProgressDoesNotHoldUpAnotherThreadsReads() throws {
        let (catalog, folder) = try Self.scratchCatalog()
        defer { _ = system("rm -rf '\(folder)'") }
        let holding = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0), finished = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            _ = catalog.request {
                _ = catalog.counts
                holding.signal()
                release.wait()
            }
            finished.signal()
        }
        holding.wait()
        let other = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            _ = catalog.request { _ = catalog.folder(1) }
            other.signal()
        }
        #expect(other.wait(timeout: .now() + 10) == .success, "a second thread's request waited for the first's to end")
        release.signal()
        finished.wait()
    }

    @Test func readsNestedInARequestShareItsSnapshot() throws {
        let (catalog, folder) = try Self.scratchCatalog()
        defer { _ = system("rm -rf '\(folder)'") }
        #expect(!catalog.isInSnapshot)
        var nested = false
        let read = catalog.request {
            let before = catalog.readQueryCount
            _ = catalog.folder(7)
            _ = catalog.request { _ = catalog.folder(7) }
            // The second read of row 7 (absent) asks again, on the same connection: two statements, no BEGIN of its own.
            nested = catalog.isInSnapshot && catalog.readQueryCount - before <= 3
        }
        #expect(read && nested)
        #expect(!catalog.isInSnapshot)
    }
}

/// A read outside any request runs in a snapshot of its own (issue 30 item 3: `read` took the
/// connection before its snapshot, which then never began a transaction, and each statement saw
/// whatever had been committed by then).
@Suite struct ReadSnapshotTests {
    @Test func aReadOutsideARequestSeesOneStateOfTheCatalog() throws {
        let (catalog, folder) = try ReaderPoolTests.scratchCatalog()
        defer { _ = system("rm -rf '\(folder)'") }
        func count(_ db: Database) throws(DatabaseError) -> Int64 {
            var count: Int64 = 0
            try db.query("SELECT count(*) FROM meta") { count = $0.integer(0) }
            return count
        }
        let (before, after) = catalog.read((Int64(-1), Int64(-1))) { db throws(DatabaseError) in
            let before = try count(db)
            try catalog.change { writer throws(DatabaseError) in
                try writer.query("INSERT INTO meta(key, value) VALUES ('committed meanwhile', 1)")
            }
            return (before, try count(db))
        }
        #expect(before >= 0 && after == before, "a read saw a commit made in the middle of it (\(before) then \(after) rows)")
        #expect(!catalog.isInSnapshot)
    }
}
