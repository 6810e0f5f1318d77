import Dispatch
import Glibc
import Posix
import SQLiteDatabase
import Testing
@testable import Catalog

/// The catalog's readers are a pool: a request holding its snapshot does not hold up another
/// thread's reads (one connection behind a mutex did); a snapshot is taken once per thread, and
/// the reads given it are all there is of it.
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
            _ = catalog.request { catalog in
                _ = catalog.counts  // the snapshot given the request
                holding.signal()
                release.wait()
            }
            finished.signal()
        }
        holding.wait()
        let other = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            _ = catalog.request { _ = $0.folder(1) }
            other.signal()
        }
        #expect(other.wait(timeout: .now() + 10) == .success, "a second thread's request waited for the first's to end")
        release.signal()
        finished.wait()
    }

    /// A read that fails fails its request (EIO), reads as nothing there, and leaves no
    /// transaction open: the next snapshot on the connection reads again.
    @Test func aFailedReadFailsItsRequestAndNotTheNext() throws {
        let (catalog, folder) = try Self.scratchCatalog()
        defer { _ = system("rm -rf '\(folder)'") }
        try catalog.change { db throws(DatabaseError) in try db.execute("ALTER TABLE folders RENAME TO hidden") }
        var found: CatalogStore.Folder?
        #expect(!catalog.request { found = $0.folder(1) } && found == nil)
        try catalog.change { db throws(DatabaseError) in try db.execute("ALTER TABLE hidden RENAME TO folders") }
        #expect(catalog.request { found = $0.folder(1) })
    }

    /// A snapshot taken inside another on the same thread would be another state of the catalog
    /// (and, with every connection so held, a deadlock): it stops the process, as a fault.
    @Test func aSnapshotInsideAnotherIsAFault() async throws {
        await #expect(processExitsWith: .failure) {
            let (catalog, folder) = try ReaderPoolTests.scratchCatalog()
            _ = system("rm -rf '\(folder)'")  // open, it reads on; the process will not clean up
            catalog.read { _ in catalog.read { _ in } }
        }
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
        let (before, after) = catalog.read { snapshot in
            snapshot.read((Int64(-1), Int64(-1))) { db throws(DatabaseError) in
                let before = try count(db)
                try catalog.change { writer throws(DatabaseError) in
                    try writer.query("INSERT INTO meta(key, value) VALUES ('committed meanwhile', 1)")
                }
                return (before, try count(db))
            }
        }
        #expect(before >= 0 && after == before, "a read saw a commit made in the middle of it (\(before) then \(after) rows)")
    }
}
