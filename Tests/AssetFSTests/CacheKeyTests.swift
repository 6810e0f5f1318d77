@testable import AssetFS
import PhotoSource
import Posix
import RenditionCache
import Renditions
import Testing

/// A cache key is written and read in one place (`KeyFields`): what `key` writes, `parse` reads
/// back, field for field; anything else is no key of ours.
@Suite struct CacheKeyTests {
    @Test func aFilesKeyReadsBackAsItWasMade() throws {
        let path = FilePath(bytes: Array("2024/Été/IMG:1.jpg".utf8))
        let fields = KeyFields(subject: .file(path, identity: "12:3456:1700000000123456789:-5"),
                               spec: RenditionSpec(longestSide: 1024, quality: 85), fingerprint: "r9-abc")
        #expect(KeyFields.parse(fields.key) == fields)
    }

    @Test func aSharedKeyReadsBackAndNamesNoPath() throws {
        let fields = KeyFields(subject: .content(digest: Array(200...215), format: "jpeg"),
                               spec: RenditionSpec(longestSide: 256, quality: 70), fingerprint: "r9-abc")
        #expect(fields.key.bytes.first == 0, "no photo's relative path is empty")
        #expect(KeyFields.parse(fields.key) == fields)
    }

    /// Copies' keys are one whatever their paths; a different format or spec is another.
    @Test func copiesShareAKeyAndOnlyCopies() {
        let digest: [UInt8] = Array(1...16)
        let spec = RenditionSpec(longestSide: 256)
        func photo(_ path: String, inode: UInt64, format: SourceFormat = .jpeg) -> Photo {
            Photo(relativePath: FilePath(path), fileName: Array(FilePath(path).lastComponent),
                  identity: SourceIdentity(inode: inode, size: 10, modificationNanoseconds: 1, changeNanoseconds: 1),
                  userID: 0, groupID: 0, permissions: 0o444, format: format)
        }
        let trip = RenditionRequest(photo: photo("Trip/PXL_1.jpg", inode: 1), renditionDigest: digest, spec: spec)
        #expect(RenditionRequest(photo: photo("Photos from 2023/PXL_1.jpg", inode: 2), renditionDigest: digest, spec: spec).key == trip.key)
        #expect(RenditionRequest(photo: photo("Photos from 2023/PXL_1.jpg", inode: 2), spec: spec).key != trip.key, "no digest: its own")
        #expect(RenditionRequest(photo: photo("Trip/PXL_1.jpg", inode: 1), renditionDigest: Array(2...17), spec: spec).key != trip.key)
        #expect(RenditionRequest(photo: photo("Trip/PXL_1.tif", inode: 1, format: .tiff), renditionDigest: digest, spec: spec).key != trip.key)
        #expect(RenditionRequest(photo: photo("Trip/PXL_1.jpg", inode: 1), renditionDigest: digest, spec: RenditionSpec(longestSide: 257)).key != trip.key)
    }

    @Test func otherBytesAreNoKey() {
        for text in ["no zero byte", "a\u{0}1:2:3:4:256:85", "a\u{0}1:2:3:4:x:85:f", "a\u{0}1:2:3:4:256:85:f:extra",
                     "\u{0}md5:tooshort:jpeg:256:85:f", "\u{0}sha:aebagbafaydqqcikbmga2dqpca:jpeg:256:85:f", "\u{0}1:2:3:4:256:85:f"] {
            #expect(KeyFields.parse(CacheKey(Array(text.utf8))) == nil, "\(text)")
        }
    }
}
