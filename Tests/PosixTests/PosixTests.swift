import Glibc
import Testing
@testable import Posix

@Suite struct PosixTests {
    @Test func syscallTurnsMinusOneIntoTypedErrno() {
        #expect(throws: Errno.notFound) { _ = try OwnedFileDescriptor.openReadOnly(FilePath("/nonexistent/assetfs")) }
    }

    @Test func readsAtOffsetAndStopsAtEndOfFile() throws {
        let path = FilePath("/tmp/assetfs-posix-\(getpid())")
        let out = try OwnedFileDescriptor.create(path)
        try out.writeAll(Array("hello world".utf8))
        try out.close()
        defer { unlink("/tmp/assetfs-posix-\(getpid())") }
        let fd = try OwnedFileDescriptor.openReadOnly(path)
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

    /// ext4 keeps dates from 1901 to 2446; Int64 nanoseconds hold 1677 to 2262: saturate, never trap.
    @Test func timesOutsideWhatNanosecondsHoldSaturate() throws {
        #expect(FileStatus.nanoseconds(timespec(tv_sec: 10_413_792_000, tv_nsec: 5)) == Int64.max)   // 2300-01-01
        #expect(FileStatus.nanoseconds(timespec(tv_sec: -10_000_000_000, tv_nsec: 0)) == Int64.min)  // 1653
        #expect(FileStatus.nanoseconds(timespec(tv_sec: -2_208_988_800, tv_nsec: 7)) == -2_208_988_800_000_000_000 + 7)  // 1900
        #expect(FileStatus.nanoseconds(timespec(tv_sec: 9_223_372_036, tv_nsec: 999_999_999)) == Int64.max)  // just past the edge
        // A real file dated 2300 stats without trapping.
        let path = "/tmp/assetfs-posix-future-\(getpid())"
        let out = try OwnedFileDescriptor.create(FilePath(path))
        try out.close()
        defer { unlink(path) }
        var times = [timespec(tv_sec: 10_413_792_000, tv_nsec: 0), timespec(tv_sec: 10_413_792_000, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
        #expect(try FileStatus(path: FilePath(path)).modificationNanoseconds == Int64.max)
    }
}
