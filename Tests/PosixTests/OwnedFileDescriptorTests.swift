import Glibc
import Testing
@testable import Posix

/// A descriptor is closed once, by its one owner: when the owner lets it go, when `close()`
/// consumes it, or (shared) when the last holder lets go. "Is it open" is asked of the kernel
/// with `fcntl(F_GETFD)`, which fails with EBADF on a closed number.
@Suite struct OwnedFileDescriptorTests {
    static func isOpen(_ descriptor: Int32) -> Bool { fcntl(descriptor, F_GETFD) != -1 }

    @Test func anOwnerThatGoesAwayClosesItsDescriptor() throws {
        var number: Int32 = -1
        do {
            let file = try OwnedFileDescriptor.openReadOnly(FilePath("/proc/self/mountinfo"))
            number = file.rawValue
            #expect(Self.isOpen(number))
        }
        #expect(!Self.isOpen(number))
    }

    @Test func closeClosesAndReportsTheResult() throws {
        let file = try OwnedFileDescriptor.memoryFile(holding: [1, 2, 3])
        let number = file.rawValue
        #expect(try file.read(upTo: 10, at: 0) == [1, 2, 3])
        try file.close()
        #expect(!Self.isOpen(number))
    }

    @Test func aSharedDescriptorClosesWithItsLastHolder() throws {
        var shared: SharedFileDescriptor? = SharedFileDescriptor(try OwnedFileDescriptor.memoryFile(holding: [7]))
        let number = try #require(shared).rawValue
        let reader = shared
        shared = nil
        #expect(Self.isOpen(number), "a holder is left")
        #expect(try reader?.read(upTo: 1, at: 0) == [7])
        _ = consume reader
        #expect(!Self.isOpen(number))
    }

    @Test func leaveOpenGivesTheNumberUpWithoutClosingIt() throws {
        let number = try OwnedFileDescriptor.memoryFile(holding: []).leaveOpen()
        #expect(Self.isOpen(number))
        close(number)
    }
}
