import Glibc
import Posix
import SQLiteDatabase
import Testing

/// The one owner of an SQLite connection: values round-trip, failures keep SQLite's code and the
/// SQL, statements are counted, and a damaged file is moved aside instead of failing every mount.
@Suite struct DatabaseTests {
    /// A fresh folder under /tmp, removed by `body`'s caller when done.
    static func withFolder(_ body: (FilePath) throws -> Void) throws {
        var template = Array("/tmp/assetfs-database-XXXXXX".utf8CString)
        let folder = FilePath(String(cString: try #require(mkdtemp(&template))))
        defer { _ = system("rm -rf '\(folder)'") }
        try body(folder)
    }

    static func create(_ path: FilePath) throws(DatabaseError) -> Database {
        let database = try Database(path: path)
        try database.execute("CREATE TABLE IF NOT EXISTS t(i INTEGER, r REAL, s TEXT, b BLOB)")
        return database
    }

    @Test func valuesRoundTripAndStatementsAreCounted() throws {
        try Self.withFolder { folder in
            let database = try Self.create(folder.appending(Array("a.sqlite".utf8)))
            let before = database.queryCount
            try database.run("BEGIN")
            #expect(database.isInTransaction)
            try database.query("INSERT INTO t VALUES (?, ?, ?, ?)", [.integer(-7), .real(2.5), .text("Ünïcode"), .blob([0, 1, 255])])
            #expect(database.lastInsertedRow == 1 && database.changes == 1)
            try database.query("INSERT INTO t VALUES (?, ?, ?, ?)", [.null, .null, .null, .null])
            try database.run("COMMIT")
            #expect(!database.isInTransaction)
            var rows: [String] = []
            try database.query("SELECT i, r, s, b, i IS NULL FROM t ORDER BY rowid") { row in
                rows.append("\(row.integer(0)) \(row.double(1)) \(row.text(2)) \(row.blob(3)) \(row.isNull(0))")
            }
            #expect(rows == ["-7 2.5 Ünïcode [0, 1, 255] false", "0 0.0  [] true"])
            #expect(database.queryCount == before + 3, "BEGIN and COMMIT through run() are not counted, each query is")
            #expect(try database.readBlob(table: "t", column: "b", row: 1, offset: 1, count: 2) == [1, 255])
        }
    }

    @Test func aFailureKeepsSQLitesCodeAndTheStatement() throws {
        try Self.withFolder { folder in
            let database = try Self.create(folder.appending(Array("a.sqlite".utf8)))
            let error = #expect(throws: DatabaseError.self) { try database.query("SELECT x FROM nowhere") }
            #expect(error?.sql == "SELECT x FROM nowhere" && error?.code == 1 && error?.message.contains("nowhere") == true, "\(String(describing: error))")
            #expect(error?.isCorruption == false)
        }
    }

    /// Another connection's write changes the file's data version, as the catalog's readers rely on.
    @Test func anotherConnectionsWriteChangesTheDataVersion() throws {
        try Self.withFolder { folder in
            let path = folder.appending(Array("a.sqlite".utf8))
            let reader = try Self.create(path), writer = try Database(path: path)
            try reader.useWriteAheadLog()
            let before = try #require(reader.fileDataVersion())
            #expect(reader.fileDataVersion() == before, "asking twice without a change")
            try writer.query("INSERT INTO t(i) VALUES (1)")
            try reader.query("SELECT count(*) FROM t")
            #expect(reader.fileDataVersion() != before)
        }
    }

    /// A file that is not a database is moved aside (kept for inspection) and a new one made,
    /// private to its owner.
    @Test func aDamagedFileIsMovedAsideAndANewOneMade() throws {
        try Self.withFolder { folder in
            let inner = folder.appending(Array("cache".utf8)), path = inner.appending(Array("a.sqlite".utf8))
            _ = mkdir(inner.description, 0o755)
            let garbage = [UInt8](repeating: 0x5A, count: 8192)
            let fd = open(path.description, O_WRONLY | O_CREAT, 0o644)
            #expect(write(fd, garbage, garbage.count) == garbage.count)
            close(fd)
            let database = try Database.openPrivate(path, what: "the test's database", Self.create)
            try database.query("INSERT INTO t(i) VALUES (1)")
            let names = try Directory.entries(of: inner).map { String(decoding: $0.name, as: UTF8.self) }
            let aside = try #require(names.first { $0.hasPrefix("a.sqlite.corrupt-") }, "\(names)")
            var status = stat()
            #expect(stat(inner.appending(Array(aside.utf8)).description, &status) == 0 && status.st_size == 8192, "the damaged file is kept whole")
            #expect(stat(path.description, &status) == 0 && status.st_mode & 0o777 == 0o600, "the new one is private")
        }
    }
}
