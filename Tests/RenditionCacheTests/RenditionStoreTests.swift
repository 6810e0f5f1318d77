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

/// A second connection to a store's file, for what the store's API does not show: the LRU clock.
/// The store keeps `last_used` in whole seconds and skips re-marking within a minute, so tests set
/// the times they need here instead of sleeping.
struct UseClock {
    let database: Database
    init(_ store: RenditionStore) throws { database = try Database(path: store.path) }

    func set(_ name: String, to seconds: Int64) throws {
        try database.query("UPDATE entries SET last_used = ? WHERE key = ?", [.integer(seconds), .blob(key(name).bytes)])
        #expect(database.changes == 1, "no entry \(name)")
    }

    func lastUsed(_ name: String) throws -> Int64? {
        var result: Int64?
        try database.query("SELECT last_used FROM entries WHERE key = ?", [.blob(key(name).bytes)]) { result = $0.integer(0) }
        return result
    }
}

func now() -> Int64 { Int64(time(nil)) }

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

    /// A version 2 cache keeps its renditions and forgets its failures, whose reasons named
    /// SOURCE's absolute path (found again on first use, named inside SOURCE).
    @Test func aVersion2CacheForgetsItsFailuresOnly() throws {
        let folder = ScratchFolder()
        let path = folder.file("cache.sqlite")
        do {
            let store = try RenditionStore(path: path, capacity: 1 << 20)
            try store.store([1, 2, 3], for: key("a"))
            try store.storeFailure("/srv/photos/broken.jpg: corrupt", for: key("b"))
            try Database(path: path).execute("DROP INDEX outcomes_failed; PRAGMA user_version = 2")  // as version 2 made it
        }
        let store = try RenditionStore(path: path, capacity: 1 << 20)
        #expect(try store.bytes(for: key("a")) == [1, 2, 3])
        #expect(try store.outcome(for: key("b")) == nil)
        #expect(try store.failures().isEmpty)
        try store.storeFailure("broken.jpg: corrupt", for: key("c"))
        #expect(try store.failures().map(\.reason) == ["broken.jpg: corrupt"])
    }

    /// A version 3 cache forgets its reasons, which named a file inside SOURCE (copies now share a
    /// key: one copy's reader would read another's path); a rendition made from a preview goes
    /// with its reason, the others stay.
    @Test func aVersion3CacheForgetsItsReasons() throws {
        let folder = ScratchFolder()
        let path = folder.file("cache.sqlite")
        do {
            let store = try RenditionStore(path: path, capacity: 1 << 20)
            try store.store([1, 2, 3], for: key("a"))
            try store.store([4, 5], for: key("p"), previewReason: "A/p.heic: shown from its thumbnail item")
            try store.storeFailure("A/b.jpg: corrupt", for: key("b"))
            try Database(path: path).execute("PRAGMA user_version = 3")
        }
        let store = try RenditionStore(path: path, capacity: 1 << 20)
        #expect(try store.bytes(for: key("a")) == [1, 2, 3])
        #expect(try store.outcome(for: key("p")) == nil && store.bytes(for: key("p")) == nil)
        #expect(try store.outcome(for: key("b")) == nil)
        #expect(try store.failures().isEmpty && store.statistics().entries == 1)
    }

    @Test func evictsLeastRecentlyUsedBlobsButKeepsTheirSizes() throws {
        let folder = ScratchFolder()
        let store = try RenditionStore(path: folder.file("c.sqlite"), capacity: 3500)
        for name in ["a", "b", "c"] { try store.store([UInt8](repeating: 7, count: 1000), for: key(name)) }
        // Recency unlike insertion order: a (stored first) was used last, b longest ago.
        let clock = try UseClock(store)
        let t = now()
        try clock.set("a", to: t - 100)
        try clock.set("b", to: t - 300)
        try clock.set("c", to: t - 200)
        try store.store([UInt8](repeating: 7, count: 1000), for: key("d"))  // 4000 > 3500: one must go
        #expect(try store.bytes(for: key("b")) == nil, "b was the least recently used")
        #expect(try store.bytes(for: key("a"))?.count == 1000, "a was stored first but used most recently")
        #expect(try store.bytes(for: key("c"))?.count == 1000)
        #expect(try store.bytes(for: key("d"))?.count == 1000)
        #expect(try store.outcome(for: key("b")) == .rendered(size: 1000))
        let stats = try store.statistics()
        #expect(stats.bytes == 3000 && stats.entries == 3 && stats.outcomes == 4)
        #expect(stats.oldestUse == t - 200)
    }

    @Test func markUsedMovesARenditionToTheEndOfTheEvictionOrder() throws {
        let folder = ScratchFolder()
        let store = try RenditionStore(path: folder.file("c.sqlite"), capacity: 3500)
        for name in ["a", "b", "c"] { try store.store([UInt8](repeating: 7, count: 1000), for: key(name)) }
        let clock = try UseClock(store)
        let t = now()
        try clock.set("a", to: t - 3000)
        try clock.set("b", to: t - 2000)
        try clock.set("c", to: t - 1000)
        try store.markUsed([key("a"), key("missing")])
        #expect(try clock.lastUsed("a").map { $0 >= t } == true)
        #expect(try clock.lastUsed("b") == t - 2000)
        try store.store([UInt8](repeating: 7, count: 1000), for: key("d"))
        #expect(try store.contains(key("a")), "a was marked used: b is now the oldest")
        #expect(try store.contains(key("b")) == false)
        #expect(try store.contains(key("c")) && store.contains(key("d")))
    }

    @Test func markUsedWritesAnEntryAtMostOnceAMinute() throws {
        let folder = ScratchFolder()
        let store = try RenditionStore(path: folder.file("c.sqlite"), capacity: 1 << 20)
        try store.store([1], for: key("recent"))
        try store.store([1], for: key("old"))
        let clock = try UseClock(store)
        let t = now()
        try clock.set("recent", to: t - 30)
        try clock.set("old", to: t - 61)
        try store.markUsed([key("recent"), key("old")])
        #expect(try clock.lastUsed("recent") == t - 30, "marked 30 s ago: not written again")
        #expect(try clock.lastUsed("old").map { $0 >= t } == true)
    }

    @Test func pruneEvictsDownToALoweredCapacityOldestFirst() throws {
        let folder = ScratchFolder()
        let path = folder.file("c.sqlite")
        let t = now()
        do {
            let store = try RenditionStore(path: path, capacity: 1 << 20)
            for name in ["a", "b", "c", "d"] { try store.store([UInt8](repeating: 1, count: 1000), for: key(name)) }
            let clock = try UseClock(store)
            for (name, age) in [("a", 10), ("b", 40), ("c", 30), ("d", 20)] { try clock.set(name, to: t - Int64(age)) }
        }
        let store = try RenditionStore(path: path, capacity: 2000)
        #expect(try store.statistics().entries == 4, "opening with a lower capacity evicts nothing by itself")
        try store.prune()
        let stats = try store.statistics()
        #expect(stats.entries == 2 && stats.bytes == 2000 && stats.outcomes == 4)
        #expect(try store.contains(key("a")) && store.contains(key("d")))
        #expect(try !store.contains(key("b")) && !store.contains(key("c")))
        try store.prune()
        #expect(try store.statistics().entries == 2, "already under the capacity: nothing more goes")
    }

    @Test func aDamagedFileIsMovedAsideAndReplaced() throws {
        let folder = ScratchFolder()
        let path = folder.file("c.sqlite")
        let garbage = try OwnedFileDescriptor.create(path)
        try garbage.writeAll([UInt8](repeating: 0x41, count: 8192))
        try garbage.close()
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
        let damaged = try OwnedFileDescriptor.openReadOnly(path)
        let oldBytes = try damaged.read(upTo: 1 << 20, at: 0)
        try damaged.close()
        #expect(oldBytes.count == 40_000)

        let store = try RenditionStore(path: path, capacity: 1 << 30)
        // Moved aside whole, under a .corrupt- name, not deleted or overwritten.
        let aside = try Directory.entries(of: folder.path).map { String(decoding: $0.name, as: UTF8.self) }
            .filter { $0.hasPrefix("c.sqlite.corrupt-") }
        #expect(aside.count == 1, "entries: \(aside)")
        if let name = aside.first {
            let file = try OwnedFileDescriptor.openReadOnly(folder.file(name))
            #expect(try file.read(upTo: 1 << 20, at: 0) == oldBytes, "the moved-aside file holds the damaged bytes")
        }
        // The new store starts empty and works.
        #expect(try store.statistics().entries == 0 && store.statistics().outcomes == 0)
        #expect(try store.bytes(for: key("k1")) == nil)
        try store.store([1], for: key("fresh"))
        #expect(try store.bytes(for: key("fresh")) == [1])
        #expect(try FileStatus(path: path).size != 40_000)
    }

    @Test func clearDropsEverything() throws {
        let folder = ScratchFolder()
        let store = try RenditionStore(path: folder.file("c.sqlite"), capacity: 1 << 20)
        try store.store([1], for: key("a"))
        try store.clear()
        #expect(try store.statistics().entries == 0)
        #expect(try store.outcome(for: key("a")) == nil)
    }

    /// Opening checks only what is cheap; the full check finds damage inside the file.
    @Test func theFullCheckFindsWhatOpeningDoesNotRead() throws {
        let folder = ScratchFolder()
        let path = folder.file("c.sqlite")
        do {
            let store = try RenditionStore(path: path, capacity: 1 << 30)
            for name in (0..<200).map(String.init) { try store.store([UInt8](repeating: 7, count: 4000), for: key(name)) }
            #expect(try store.integrityCheck() == ["ok"])
            store.checkpoint()
        }
        // Scribble over a page in the middle of the file (a bad disk, say).
        let file = open(path.description, O_WRONLY)
        #expect(pwrite(file, [UInt8](repeating: 0xAB, count: 4096), 4096, 40 * 4096) == 4096)
        close(file)
        let store = try RenditionStore(path: path, capacity: 1 << 30)
        #expect(try store.integrityCheck() != ["ok"])
    }

    /// The environment is passed in, not set with setenv: tests run in parallel, and setenv while
    /// another thread calls getenv is a data race.
    @Test func defaultLocationIsPerSourceUnderTheCacheHome() {
        let environment: [String: String] = ["XDG_CACHE_HOME": "/tmp/xdg", "HOME": "/home/me"]
        let one = CacheLocation.defaultPath(forSource: FilePath("/home/me/Pictures")) { environment[$0] }
        let two = CacheLocation.defaultPath(forSource: FilePath("/home/you/Pictures")) { environment[$0] }
        #expect(one.description.hasPrefix("/tmp/xdg/assetfs/Pictures-"))
        #expect(one.description.hasSuffix(".sqlite"))
        #expect(one != two)
        #expect(CacheLocation.defaultPath(forSource: FilePath("/home/me/Pictures")) { environment[$0] } == one)
    }

    @Test func withoutXDGCacheHomeTheCacheIsUnderHomeElseVarCache() {
        let home: [String: String] = ["XDG_CACHE_HOME": "", "HOME": "/home/me"]
        #expect(CacheLocation.defaultPath(forSource: FilePath("/p/Photos")) { home[$0] }.description.hasPrefix("/home/me/.cache/assetfs/Photos-"))
        #expect(CacheLocation.defaultPath(forSource: FilePath("/p/Photos")) { _ in nil }.description.hasPrefix("/var/cache/assetfs/Photos-"))
    }
}
