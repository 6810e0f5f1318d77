import Testing
import AssetFS
@testable import AssetFSCLI

/// How counts and sizes read in the log and in `assetfs cache stats`.
@Suite struct WordingTests {
    @Test func countsAgreeWithTheirNumber() {
        #expect(counted(1, "album") == "1 album" && counted(0, "album") == "0 albums" && counted(3, "photo") == "3 photos")
    }

    /// `cache_size=100K` read "0 MiB of 0 MiB".
    @Test func sizesReadInTheUnitTheyFill() {
        #expect(CacheCommand.readable(0) == "0 bytes")
        #expect(CacheCommand.readable(100 << 10) == "100 KiB")
        #expect(CacheCommand.readable(133_216) == "130 KiB")
        #expect(CacheCommand.readable(1_500_000) == "1.4 MiB")
        #expect(CacheCommand.readable(1 << 30) == "1 GiB")
    }
}
