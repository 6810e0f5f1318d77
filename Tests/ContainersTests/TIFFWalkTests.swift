import Containers
import Testing

/// The one IFD walk: IFD0, SubIFDs and the next chain, each IFD once, bounded, whatever the file says.
@Suite struct TIFFWalkTests {
    /// A little-endian TIFF: each IFD at its offset, given as (tag, type, count, value) entries and a next offset.
    func tiff(_ ifds: [(offset: Int, entries: [(Int, Int, Int, Int)], next: Int)], length: Int = 512) -> [UInt8] {
        var bytes = [0x49, 0x49, 0x2A, 0x00] + ByteOrder.littleEndian.bytes(of: ifds[0].offset, count: 4) + Array(repeating: 0, count: length - 8)
        let le = ByteOrder.littleEndian
        for ifd in ifds {
            var at = ifd.offset
            func put(_ value: Int, _ count: Int) { bytes.replaceSubrange(at..<at + count, with: le.bytes(of: value, count: count)); at += count }
            put(ifd.entries.count, 2)
            for (tag, type, count, value) in ifd.entries { put(tag, 2); put(type, 2); put(count, 4); put(value, 4) }
            put(ifd.next, 4)
        }
        return bytes
    }

    func walk(_ bytes: [UInt8], limit: Int = 16, chain: TIFFStructure.Chain = .every) -> [Int64] {
        guard let structure = TIFFStructure(.bytes(bytes)) else { return [] }
        var visited: [Int64] = []
        structure.walkDirectories(limit: limit, chain: chain) { offset, _ in visited.append(offset); return true }
        return visited
    }

    @Test func subIFDsAndTheChainAreVisitedBreadthFirst() {
        // IFD0's two SubIFDs' offsets (LONGs) are at 100: 140, and 200, whose zeros read as an empty IFD.
        var withOffsets = tiff([(8, [(0x014A, 4, 2, 100)], 60), (60, [], 0), (140, [], 0)])
        withOffsets.replaceSubrange(100..<108, with: ByteOrder.littleEndian.bytes(of: 140, count: 4) + ByteOrder.littleEndian.bytes(of: 200, count: 4))
        #expect(walk(withOffsets) == [8, 140, 200, 60])
        #expect(walk(withOffsets, chain: .ofFirst) == [8, 140, 200, 60])
    }

    @Test func aLoopEndsWhereItCloses() {
        // IFD0 -> IFD at 60 -> back to IFD0; the IFD at 60 names itself a SubIFD.
        let bytes = tiff([(8, [], 60), (60, [(0x014A, 4, 1, 60)], 8)])
        #expect(walk(bytes) == [8, 60])
    }

    @Test func theChainIsFollowedOnlyAsAsked() {
        let bytes = tiff([(8, [], 60), (60, [], 100), (100, [], 0)])
        #expect(walk(bytes) == [8, 60, 100])
        #expect(walk(bytes, chain: .ofFirst) == [8, 60])
        #expect(walk(bytes, limit: 2) == [8, 60])
    }

    @Test func offsetsPastTheEndOrTruncatedIFDsReadNothing() {
        // IFD0 claims 30 entries in a 64-byte file; the next IFD lies past the end.
        var bytes = tiff([(8, [], 4000)], length: 64)
        bytes.replaceSubrange(8..<10, with: [30, 0])
        #expect(walk(bytes).isEmpty)
        #expect(walk(tiff([(8, [], 4000)], length: 64)) == [8])
        #expect(walk(tiff([(8, [], 0xFFFF_FFFF)], length: 64)) == [8])
    }

    @Test func aVisitCanStopTheWalk() {
        let bytes = tiff([(8, [], 60), (60, [], 100), (100, [], 0)])
        guard let structure = TIFFStructure(.bytes(bytes)) else { Issue.record("no TIFF"); return }
        var visited: [Int64] = []
        structure.walkDirectories(limit: 16, chain: .every) { offset, _ in visited.append(offset); return offset != 60 }
        #expect(visited == [8, 60])
    }
}
