@testable import AssetFS
import Posix
import RenditionCache
import Renditions
import Testing

/// A cache key is written and read in one place (`KeyFields`): what `key(for:)` writes,
/// `parse` reads back, field for field; anything else is no key of ours.
@Suite struct CacheKeyTests {
    @Test func aKeyReadsBackAsItWasMade() throws {
        let fields = KeyFields(identity: "12:3456:1700000000123456789:-5", spec: RenditionSpec(longestSide: 1024, quality: 85), fingerprint: "r9-abc")
        let path = FilePath(bytes: Array("2024/Été/IMG:1.jpg".utf8))
        let parsed = try #require(KeyFields.parse(fields.key(for: path)))
        #expect(parsed.path == path && parsed.fields == fields)
    }

    @Test func otherBytesAreNoKey() {
        for text in ["no zero byte", "a\u{0}1:2:3:4:256:85", "a\u{0}1:2:3:4:x:85:f", "a\u{0}1:2:3:4:256:85:f:extra"] {
            #expect(KeyFields.parse(CacheKey(Array(text.utf8))) == nil, "\(text)")
        }
    }
}
