import Glibc
import Testing
@testable import Posix

/// A counter in a file: every mapping of it sees the others' increments, and mapping it again
/// keeps the count (a second process opening it must not reset it).
@Suite struct SharedCounterTests {
    @Test func everyMappingSeesTheCountAndOpeningItAgainKeepsIt() throws {
        var template = Array("/tmp/assetfs-counter-XXXXXX".utf8CString)
        let folder = FilePath(String(cString: mkdtemp(&template)!))
        defer { _ = system("rm -rf '\(folder)'") }
        let path = folder.appending(Array("count".utf8))
        let first = try SharedCounter(path: path)
        #expect(first.value == 0)
        first.increment()
        let second = try SharedCounter(path: path)
        #expect(second.value == 1)
        second.increment()
        second.increment()
        #expect(first.value == 3 && second.value == 3)
    }

    @Test func aFolderThatCannotHoldItThrows() {
        #expect(throws: Errno.self) { try SharedCounter(path: FilePath("/proc/assetfs-no-counter")) }
    }
}
