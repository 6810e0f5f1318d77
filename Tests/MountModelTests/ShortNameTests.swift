import MountModel
import Testing
@testable import Catalog

/// Names longer than 255 bytes (NAME_MAX of ordinary disks) are shortened so that copies out of
/// the mount work: the end kept, `…` and a hash of the whole name in front.
@Suite struct ShortNameTests {
    func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test func aLongNameKeepsItsEndBehindAnEllipsisAndAHash() {
        let name = bytes("2024／" + String(repeating: "x", count: 120) + "／Day " + String(repeating: "y", count: 140))
        #expect(name.count == 274)
        // 490da29d: the first 8 hex digits of 64-bit FNV-1a of `name` (computed with Python).
        let expected = "…490da29d " + String(repeating: "x", count: 96) + "／Day " + String(repeating: "y", count: 140)
        #expect(text(Naming.fitted(name)) == expected)
        #expect(Naming.fitted(name).count == 255)
    }

    @Test func namesThatFitAreLeftAlone() {
        for length in [1, 200, 255] {
            let name = [UInt8](repeating: UInt8(ascii: "a"), count: length)
            #expect(Naming.fitted(name) == name)
        }
    }

    @Test func nestedAlbumsWithOneLongEndingStayApartAndCanBeLookedUp() throws {
        let deep = String(repeating: "d", count: 200) + "/" + String(repeating: "e", count: 100)
        let catalog = try ScratchCatalog()
        try catalog.apply("a/\(deep)", ["1.jpg"])
        try catalog.apply("b/\(deep)", ["2.jpg"])
        let names = (catalog.store.read { catalog.tree.entries(of: .groups, after: 0, limit: 10, in: $0) } ?? []).map(\.name)
        #expect(names.count == 2)
        #expect(names.allSatisfy { $0.count <= 255 && $0.starts(with: Naming.ellipsis) })
        #expect(names.allSatisfy { $0.suffix(100) == [UInt8](repeating: UInt8(ascii: "e"), count: 100) })
        #expect(Set(names).count == 2)
        let album = try #require(catalog.store.read { catalog.tree.child(of: .groups, named: names[1], in: $0) })
        #expect(catalog.store.read { catalog.tree.entries(of: album, after: 1, limit: 10, in: $0) }?.map(\.name) == [bytes("2")])
        let again = try ScratchCatalog()
        try again.apply("a/\(deep)", ["1.jpg"])
        #expect(again.store.read { again.tree.entries(of: .groups, after: 0, limit: 10, in: $0) }?.first?.name == names[0], "the same name every time")
    }

    @Test func neverCutsInsideAUTF8Sequence() {
        for prefix in 0..<4 {
            let name = bytes(String(repeating: "a", count: prefix) + String(repeating: "😀", count: 100))
            let fitted = Naming.fitted(name)
            #expect(fitted.count <= 255 && fitted.count >= 252, "prefix \(prefix): \(fitted.count) bytes")
            #expect(String(validating: fitted, as: UTF8.self) != nil, "prefix \(prefix): not valid UTF-8")
            #expect(fitted.hasSuffix(bytes("😀😀")))
        }
    }

    @Test func bytesThatAreNotUTF8AreKeptAsBytes() {
        let name = bytes("bad") + [UInt8](repeating: 0xFF, count: 300)
        #expect(Naming.fitted(name).count == 255)
        #expect(Naming.fitted(name).suffix(243) == [UInt8](repeating: 0xFF, count: 243)[...])
        let strays = [UInt8](repeating: 0x80, count: 300)  // continuation bytes with nothing to continue
        #expect((252...255).contains(Naming.fitted(strays).count))
    }

    @Test func numberedDuplicatesFitToo() throws {
        let long = [UInt8](repeating: UInt8(ascii: "n"), count: 254)
        let names = Naming.deduplicated([long, long, long])
        #expect(names[0] == long)
        #expect(names[1].count <= 255 && names[1].hasSuffix(bytes(" (2)")) && names[1].starts(with: Naming.ellipsis))
        #expect(names[2].count <= 255 && names[2].hasSuffix(bytes(" (3)")))
        #expect(Set(names).count == 3)
        let catalog = try ScratchCatalog()
        try catalog.apply("", ["b.jpg"], subfolders: ["Pictures"])
        try catalog.apply("Pictures", ["a.jpg"])
        #expect(catalog.names(.groups) == ["Pictures", "Pictures (2)"], "short names keep the plain suffix")
    }

    @Test func longAssetNamesFit() throws {
        let stem = String(repeating: "p", count: 260)
        let catalog = try ScratchCatalog()
        try catalog.apply("A", ["\(stem).jpg", "\(stem).jpeg"])
        let album = try #require(catalog.node("groups/A"))
        let names = (catalog.store.read { catalog.tree.entries(of: album, after: 1, limit: 10, in: $0) } ?? []).map(\.name)
        #expect(names.allSatisfy { $0.count <= 255 })
        #expect(Set(names).count == 2)
        #expect(names.map { text(Array($0.suffix(5))) } == [".jpeg", "p.jpg"])
    }

    /// A size view adds `.jpg` to the asset's name: asset names of 252 to 255 bytes would give
    /// view names over 255 bytes, which no tool can look up or copy.
    @Test func sizeViewNamesOfLongAssetNamesFitAndLeadBackToTheirPhoto() throws {
        let catalog = try ScratchCatalog()
        let files = [253, 255].map { String(repeating: "v", count: $0) } + ["short.jpg", String(repeating: "w", count: 251)]
        try catalog.apply("A", files)
        let album = try #require(catalog.node("groups/A"))
        guard case .album(let id) = album else { Issue.record("not an album: \(album)"); return }
        for size in catalog.tree.sizes {
            let view = Node.viewAlbum(size: size.slot, album: id)
            let entries = try #require(catalog.store.read { catalog.tree.entries(of: view, after: 0, limit: 10, in: $0) })
            #expect(entries.count == 4)
            for entry in entries {
                #expect(entry.name.count <= 255 && entry.name.hasSuffix(bytes(".jpg")), "\(entry.name.count) bytes")
                #expect(catalog.store.read { catalog.tree.child(of: view, named: entry.name, in: $0) } == entry.node, "\(text(Array(entry.name.prefix(12))))… looks up its photo")
            }
            let names = Set(entries.map { text($0.name) })
            #expect(names.contains("short.jpg") && names.contains(String(repeating: "w", count: 251) + ".jpg"), "names that fit stay plain")
            #expect(entries.filter { $0.name.starts(with: Naming.ellipsis) }.count == 2, "the two long ones are fitted")
            #expect(catalog.store.read { catalog.tree.child(of: view, named: bytes(String(repeating: "v", count: 253) + ".jpg"), in: $0) } == nil, "no name over 255 bytes")
        }
    }
}

extension Array where Element == UInt8 {
    func hasSuffix(_ suffix: [UInt8]) -> Bool { count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix }
}
