import Glibc
import Posix
import SQLiteDatabase
import Testing
@testable import Catalog

/// Rows a reader keeps are checked against the count of the catalog's commits (`CommitCounter`),
/// not by a statement: the count moves around every commit, whichever process's store makes it,
/// and rows kept before a commit are read again after it.
@Suite struct CommitCounterTests {
    /// A folder row to read, named `name`; its id.
    static func addFolder(_ catalog: CatalogStore, named name: String) throws -> Int64 {
        try catalog.change { db throws(DatabaseError) in
            try db.query("INSERT INTO folders(relpath, uid, gid, permissions, mtime, album_name, photo_count) VALUES (?, 0, 0, 448, 0, ?, 1)",
                         [.blob(Array("A".utf8)), .blob(Array(name.utf8))])
            return db.lastInsertedRow
        }
    }

    static func rename(_ catalog: CatalogStore, folder id: Int64, to name: String) throws {
        try catalog.change { db throws(DatabaseError) in
            try db.query("UPDATE folders SET album_name = ? WHERE id = ?", [.blob(Array(name.utf8)), .integer(id)])
        }
    }

    /// The name `catalog` reads for folder `id`, and the statements that cost.
    static func read(_ catalog: CatalogStore, folder id: Int64) -> (name: String?, statements: Int) {
        let before = catalog.readQueryCount
        let name = catalog.read { $0.folder(id) }?.albumName.map { String(decoding: $0, as: UTF8.self) }
        return (name, catalog.readQueryCount - before)
    }

    @Test func theCountIsOddWhileACommitLandsAndMovesByTwo() throws {
        let (catalog, folder) = try ReaderPoolTests.scratchCatalog()
        defer { _ = system("rm -rf '\(folder)'") }
        let before = try #require(catalog.commits.count)
        let during = try catalog.commits.committing { () throws(DatabaseError) in catalog.commits.count }
        #expect(before % 2 == 0 && during == before + 1 && catalog.commits.count == before + 2)
        _ = try Self.addFolder(catalog, named: "x")
        #expect(catalog.commits.count == before + 4, "a change is one commit")
    }

    /// A commit of this store, or of another on the file: `warm` or `broken` run beside a mount
    /// open the same catalog in another process, and their commits count in the same counter (a
    /// second store on the file stands for one here).
    @Test(arguments: [false, true]) func rowsKeptAreReadAgainAfterACommit(ofAnotherStore: Bool) throws {
        let (catalog, folder) = try ReaderPoolTests.scratchCatalog()
        defer { _ = system("rm -rf '\(folder)'") }
        let id = try Self.addFolder(catalog, named: "before")
        #expect(Self.read(catalog, folder: id) == ("before", 1))
        let writer = ofAnotherStore ? try CatalogStore(path: catalog.path, source: FilePath("/photos/P"), reservedAssetNames: []) : catalog
        #expect(Self.read(catalog, folder: id) == ("before", 0), "kept: no statement, not even data_version")
        try Self.rename(writer, folder: id, to: "after")
        #expect(Self.read(catalog, folder: id) == ("after", 1))
    }

    /// A count left odd (a process died between its two counts) or a counter that cannot be made:
    /// kept rows are then checked by `data_version`, a statement, and still follow commits.
    @Test func anOddCountFallsBackOnTheDataVersion() throws {
        let (catalog, folder) = try ReaderPoolTests.scratchCatalog()
        defer { _ = system("rm -rf '\(folder)'") }
        let id = try Self.addFolder(catalog, named: "before")
        let stuck = try SharedCounter(path: FilePath(bytes: catalog.path.bytes + Array("-commits".utf8)))
        stuck.increment()
        #expect(Self.read(catalog, folder: id) == ("before", 2), "PRAGMA data_version, then the row")
        #expect(Self.read(catalog, folder: id) == ("before", 1), "kept, checked by PRAGMA data_version")
        let other = try Database(path: catalog.path)
        try other.execute("UPDATE folders SET album_name = 'after'")  // a commit nobody counted
        #expect(Self.read(catalog, folder: id) == ("after", 2))
    }
}
