import Glibc
import Testing
@testable import Posix

@Suite struct PosixTests {
    @Test func syscallTurnsMinusOneIntoTypedErrno() {
        #expect(throws: Errno.notFound) { _ = try FileDescriptor.openReadOnly(FilePath("/nonexistent/assetfs")) }
    }

    @Test func readsAtOffsetAndStopsAtEndOfFile() throws {
        let path = FilePath("/tmp/assetfs-posix-\(getpid())")
        let out = try FileDescriptor.create(path)
        try out.writeAll(Array("hello world".utf8))
        out.close()
        defer { unlink("/tmp/assetfs-posix-\(getpid())") }
        let fd = try FileDescriptor.openReadOnly(path)
        defer { fd.close() }
        #expect(try fd.read(upTo: 5, at: 6) == Array("world".utf8))
        #expect(try fd.read(upTo: 100, at: 6) == Array("world".utf8))
        #expect(try fd.read(upTo: 10, at: 50) == [])
        #expect(try fd.status().size == 11)
    }

    @Test func pathsKeepInvalidUTF8Bytes() throws {
        let odd: [UInt8] = [0x66, 0xFF, 0xFE, 0x20, 0x0A]
        let dir = FilePath("/tmp/assetfs-posix-dir-\(getpid())")
        try Directory.create(dir.appending(odd))
        defer { _ = dir.appending(odd).withCString { rmdir($0) }; _ = dir.withCString { rmdir($0) } }
        #expect(try Directory.entries(of: dir).map(\.name) == [odd])
        #expect(dir.appending(odd).lastComponent == odd)
        #expect(FilePath("/a/b/").lastComponent == Array("b".utf8))
    }
}
