import Containers
import XCTest

final class ByteSearchTests: XCTestCase {
    func testFindsTheFirstOccurrenceAsTheGenericSearchDoes() {
        let haystack = Array("xmlns:exif=\"http://ns.adobe.com/exif/1.0/\" exif:Date exif:DateTimeOriginal".utf8)
        for needle in ["exif:", "exif:DateTimeOriginal", "x", "l", "\"", "/1.0/\"", "Original"] {
            let bytes = Array(needle.utf8)
            XCTAssertEqual(haystack.firstRange(ofBytes: bytes), haystack.firstRange(of: bytes), needle)
        }
    }

    func testASliceAnswersInItsParentsIndices() {
        let bytes = Array("abcabcabd".utf8)
        let slice = bytes[3...]
        XCTAssertEqual(slice.firstRange(ofBytes: Array("abd".utf8)), 6..<9)
        XCTAssertEqual(slice.firstRange(ofBytes: Array("abc".utf8)), 3..<6)
        XCTAssertEqual(bytes[4...].firstRange(ofBytes: Array("abc".utf8)), nil)
    }

    func testEdges() {
        let bytes: [UInt8] = [1, 2, 1, 2, 3]
        XCTAssertEqual(bytes.firstRange(ofBytes: []), 0..<0)
        XCTAssertEqual(bytes.firstRange(ofBytes: [1, 2, 3]), 2..<5, "a near miss, then the match at the very end")
        XCTAssertNil(bytes.firstRange(ofBytes: [2, 3, 4]), "a needle running past the end")
        XCTAssertNil(bytes.firstRange(ofBytes: [1, 2, 1, 2, 3, 4]), "a needle longer than the haystack")
        XCTAssertNil([UInt8]().firstRange(ofBytes: [1]))
        XCTAssertEqual(bytes[5...].firstRange(ofBytes: []), 5..<5)
    }
}
