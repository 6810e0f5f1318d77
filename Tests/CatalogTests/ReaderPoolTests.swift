import Dispatch
import Glibc
import Posix
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
