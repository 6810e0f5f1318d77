import Containers
import Posix
import Testing

/// The one ISO box reader, in memory and in a file: whole boxes are read, and a header cut short,
/// a size smaller than its header or past what encloses it ends the walk there.
@Suite struct ISOBoxTests {
    /// A box of `type` around `content`, its size as stored (the real one unless given).
    func box(_ type: String, _ content: [UInt8], size: Int? = nil) -> [UInt8] {
        ByteOrder.bigEndian.bytes(of: size ?? 8 + content.count, count: 4) + Array(type.utf8) + content
    }

    /// A box with a 64-bit size.
    func largeBox(_ type: String, _ content: [UInt8], size: Int? = nil) -> [UInt8] {
        [0, 0, 0, 1] + Array(type.utf8) + ByteOrder.bigEndian.bytes(of: size ?? 16 + content.count, count: 8) + content
    }

    func children(_ bytes: [UInt8]) -> [String] { ISOBoxContent(bytes[...]).children(from: 0).map { "\($0.type):\($0.body.bytes.count)" } }

    func fileBoxes(_ bytes: [UInt8]) throws -> [String] {
        let file = try OwnedFileDescriptor.memoryFile(holding: bytes)
        var found: [String] = []
        ISOBaseMediaFile.walkTopLevelBoxes(of: file.descriptor) { found.append("\($0.type):\($0.size - Int64($0.headerLength))") }
        return found
    }

    @Test func wholeBoxesAreReadInMemoryAndInAFileAlike() throws {
        let bytes = box("ftyp", Array("heic".utf8)) + largeBox("meta", [1, 2, 3]) + box("mdat", [9, 9], size: 0)
        #expect(children(bytes) == ["ftyp:4", "meta:3", "mdat:2"])
        #expect(try fileBoxes(bytes) == ["ftyp:4", "meta:3", "mdat:2"])
    }

    @Test(arguments: [
        ("truncated header", [0, 0, 0, 12, 0x66, 0x72]),
        ("size past the end", [0, 0, 0, 64, 0x6D, 0x6F, 0x6F, 0x76, 1, 2, 3, 4]),
        ("size below the header", [0, 0, 0, 4, 0x6D, 0x6F, 0x6F, 0x76, 1, 2, 3, 4]),
        ("64-bit size cut short", [0, 0, 0, 1, 0x6D, 0x6F, 0x6F, 0x76, 0, 0, 0]),
        ("64-bit size below its header", [0, 0, 0, 1, 0x6D, 0x6F, 0x6F, 0x76, 0, 0, 0, 0, 0, 0, 0, 12]),
        ("64-bit size past Int64", [0, 0, 0, 1, 0x6D, 0x6F, 0x6F, 0x76, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]),
    ] as [(String, [UInt8])])
    func aBrokenBoxEndsTheWalkAfterTheWholeOnes(_ case: String, _ broken: [UInt8]) throws {
        let bytes = box("ftyp", Array("avif".utf8)) + broken
        #expect(children(bytes) == ["ftyp:4"], "\(`case`)")
        #expect(try fileBoxes(bytes) == ["ftyp:4"], "\(`case`)")
        #expect(ISOBoxHeader(broken, room: Int64(broken.count)) == nil, "\(`case`)")
    }

    @Test func aChildIsBoundedByItsParentNotByTheFile() {
        // meta's child claims 100 bytes; meta holds 12 and more bytes follow meta.
        let meta = box("meta", box("iloc", [1, 2, 3, 4], size: 100))
        let content = ISOBoxContent(meta[...] + box("free", Array(repeating: 0, count: 200))[...])
        guard let body = content.children(from: 0).first?.body else { Issue.record("no meta"); return }
        #expect(body.children(from: 0).isEmpty)
        #expect(body.number(at: 8, size: 4) == 0x0102_0304)
        #expect(body.number(at: 9, size: 4) == nil)
        #expect(body.bytes(at: -1, count: 2) == nil && body.bytes(at: 2, count: Int.max) == nil)
    }
}
