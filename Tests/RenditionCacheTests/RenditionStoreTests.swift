import Glibc
import Posix
import Testing
@testable import RenditionCache

final class ScratchFolder {
    let path: FilePath
    init() {
        var template = Array("/tmp/assetfs-cache-XXXXXX".utf8CString)
        path = FilePath(String(cString: mkdtemp(&template)!))
    }
    deinit { _ = system("rm -rf '\(path)'") }
    func file(_ name: String) -> FilePath { path.appending(Array(name.utf8)) }
}

func key(_ text: String) -> CacheKey { CacheKey(Array(text.utf8)) }

@Suite struct RenditionStoreTests {
    @Test func storesBytesAndSizesThatSurviveReopening() throws {
        let folder = ScratchFolder()
        let path = folder.file("sub/cache.sqlite")
        do {
            let store = try RenditionStore(path: path, capacity: 1 << 20)
            try store.store([1, 2, 3], for: key("a"))
            try store.storeFailure("broken.jpg: corrupt", for: key("b"))
        }
        let store = try RenditionStore(path: path, capacity: 1 << 20)
        #expect(try store.bytes(for: key("a")) == [1, 2, 3])
        #expect(try store.outcome(for: key("a")) == .rendered(size: 3))
        #expect(try store.outcome(for: key("b")) == .failed(reason: "broken.jpg: corrupt"))
        #expect(try store.bytes(for: key("missing")) == nil)
        #expect(try store.statistics().outcomes == 2)
        #expect(try FileStatus(path: path).permissions == 0o600)
        #expect(try FileStatus(path: folder.file("sub")).permissions == 0o700)
    }

    @Test func evictsLeastRecentlyUsedBlobsButKeepsTheirSizes() throws {
        let folder = ScratchFolder()
        let store = try RenditionStore(path: folder.file("c.sqlite"), capacity: 2500)
        for name in ["a", "b", "c"] { try store.store([UInt8](repeating: 7, count: 1000), for: key(name)) }
        #expect(try store.bytes(for: key("a")) == nil)
        #expect(try store.bytes(for: key("c"))?.count == 1000)
        #expect(try store.outcome(for: key("a")) == .rendered(size: 1000))
        let stats = try store.statistics()
        #expect(stats.bytes == 2000 && stats.entries == 2 && stats.outcomes == 3)
    }

    @Test func aDamagedFileIsMovedAsideAndReplaced() throws {
        let folder = ScratchFolder()
        let path = folder.file("c.sqlite")
        let garbage = try FileDescriptor.create(path)
        try garbage.writeAll([UInt8](repeating: 0x41, count: 8192))
        garbage.close()
        let store = try RenditionStore(path: path, capacity: 1 << 20)
        try store.store([9], for: key("x"))
        #expect(try store.bytes(for: key("x")) == [9])
        #expect(try Directory.entries(of: folder.path).contains { String(decoding: $0.name, as: UTF8.self).hasPrefix("c.sqlite.corrupt-") })
    }

    @Test func aTruncatedDatabaseIsMovedAsideToo() throws {
        let folder = ScratchFolder()
        let path = folder.file("c.sqlite")
        do {
            let store = try RenditionStore(path: path, capacity: 1 << 30)
            for i in 0..<50 { try store.store([UInt8](repeating: UInt8(i), count: 20_000), for: key("k\(i)")) }
        }
        _ = path.withCString { truncate($0, 40_000) }
        for suffix in ["-wal", "-shm"] { _ = unlink("\(path)\(suffix)") }
        let store = try RenditionStore(path: path, capacity: 1 << 30)
        try store.store([1], for: key("fresh"))
        #expect(try store.bytes(for: key("fresh")) == [1])
    }

    @Test func clearDropsEverything() throws {
        let folder = ScratchFolder()
        let store = try RenditionStore(path: folder.file("c.sqlite"), capacity: 1 << 20)
        try store.store([1], for: key("a"))
        try store.clear()
        #expect(try store.statistics().entries == 0)
        #expect(try store.outcome(for: key("a")) == nil)
    }

    @Test func defaultLocationIsPerSourceUnderTheCacheHome() {
        setenv("XDG_CACHE_HOME", "/tmp/xdg", 1)
        defer { unsetenv("XDG_CACHE_HOME") }
        let one = CacheLocation.defaultPath(forSource: FilePath("/home/me/Pictures"))
        let two = CacheLocation.defaultPath(forSource: FilePath("/home/you/Pictures"))
        #expect(one.description.hasPrefix("/tmp/xdg/assetfs/Pictures-"))
        #expect(one != two)
    }
}
