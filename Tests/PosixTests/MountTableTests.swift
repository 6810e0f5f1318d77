import Testing
@testable import Posix

@Suite struct MountTableTests {
    @Test func undoesTheKernelsOctalEscapes() {
        let field = Array(#"/tmp/a\040b\011c\012d\134e\777"#.utf8)
        #expect(MountTable.unescaped(field[...]) == Array("/tmp/a b\tc\nd\\e".utf8) + Array(#"\777"#.utf8))
    }

    @Test func seesTheRootMount() throws {
        #expect(try MountTable.mountPoints().contains(FilePath("/")))
    }

    @Test func parentsOfPaths() {
        #expect(FilePath("/a/b").parent == FilePath("/a"))
        #expect(FilePath("/a/b/").parent == FilePath("/a"))
        #expect(FilePath("/a").parent == FilePath("/"))
        #expect(FilePath("a").parent == FilePath(bytes: []))
        #expect(FilePath("a/b").parent == FilePath("a"))
    }
}
