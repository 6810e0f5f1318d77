import Posix
import Testing
@testable import AssetFS
@testable import PhotoSource

/// The read-ahead of a whole walk: every folder asked for is read exactly once, whether it was
/// expected (read ahead), being read, or never expected (read by the caller), and an error comes
/// back to the caller as it was.
struct FolderPrefetcherTests {
    static func listing(_ inode: UInt64) -> FolderListing {
        let status = FileStatus(device: 1, inode: inode, mode: 0o40755, userID: 0, groupID: 0, size: 4096,
                                modificationNanoseconds: 0, changeNanoseconds: 0)
        return FolderListing(status: status, subfolders: [], photos: [], skipped: [])
    }

    @Test func everyFolderIsReadOnceAndComesBackAsRead() {
        // Locked (a pthread mutex), not Synchronization.Mutex, whose futex hand-off TSan does not model.
        let reads = Locked<[FilePath: Int]>([:])
        let scheduler = Scheduler(threads: 2, name: "test")
        defer { scheduler.shutdown() }
        let prefetcher = FolderPrefetcher(scheduler: scheduler, threads: 2, limit: 8) { folder in
            reads.withLock { $0[folder, default: 0] += 1 }
            guard folder != FilePath("missing") else { return .failure(.notFound) }
            return .success(Self.listing(UInt64(folder.bytes.count)))
        }
        defer { prefetcher.finish() }
        let folders = (1...40).map { FilePath("album-" + String(repeating: "x", count: $0)) }
        // The walk's pattern: expect what comes next, then take in that order.
        for (index, folder) in folders.enumerated() {
            prefetcher.expect(folders[index...])
            let result = prefetcher.take(folder)
            #expect((try? result.get())?.status.inode == UInt64(folder.bytes.count))
        }
        #expect(prefetcher.take(FilePath("never-expected")).map(\.status.inode) == .success(14))
        prefetcher.expect([FilePath("missing")])
        #expect(prefetcher.take(FilePath("missing")).map(\.status.inode) == .failure(.notFound))
        let counts = reads.withLock { $0 }
        #expect(counts.count == folders.count + 2)
        #expect(counts.values.allSatisfy { $0 == 1 })
    }

    @Test func finishingDropsWhatWasReadAheadAndStopsTheThreads() {
        let scheduler = Scheduler(threads: 2, name: "test")
        defer { scheduler.shutdown() }
        let prefetcher = FolderPrefetcher(scheduler: scheduler, threads: 2, limit: 4) { folder in .success(Self.listing(UInt64(folder.bytes.count))) }
        prefetcher.expect((1...10).map { FilePath("folder-\($0)") })
        prefetcher.finish()
        // After finish, a take still answers, read on the caller's thread.
        #expect(prefetcher.take(FilePath("folder-1")).map(\.status.inode) == .success(8))
    }
}
