import Foundation
import Testing

extension Mounted {
    /// Names over 255 bytes are shortened in the mount, so copies to an ordinary disk work.
    @Suite struct LongNameTests {
        static let x = String(repeating: "x", count: 150), y = String(repeating: "y", count: 150)
        /// `2024／xxx…／yyy…` is 310 bytes; d86b12f8 is its FNV-1a (computed with Python).
        static let shownName = "…d86b12f8 " + String(repeating: "x", count: 90) + "／" + y

        static var library: Library {
            Library(sourceName: "Photos", albums: [
                Library.Album(name: Array(shownName.utf8), assets: [
                    Library.Asset(name: Array("beach".utf8), source: Array("2024/\(x)/\(y)/beach.jpg".utf8), sample: "cameras/Casio_EX-S1.jpg"),
                ]),
            ])
        }

        @Test func cpDashACopiesAnAlbumWithALongName() throws {
            let library = Self.library
            try withScratch(library) { scratch in
                let mount = try scratch.mount()
                #expect(RawFiles.names(in: mount.groups)?.map(\.text) == [Self.shownName])
                #expect(Self.shownName.utf8.count == 255)
                // The whole tree, so the album's name is made on the copy's disk.
                let destination = scratch.path + "/copy"
                let copy = Command.run("cp", ["-a", mount.point + "/groups", destination], timeout: 300)
                #expect(copy.status == 0, "cp -a: \(copy.err)")
                let diff = Command.run("diff", ["-r", mount.point + "/groups", destination], timeout: 300)
                #expect(diff.status == 0, "diff -r: \(diff.out) \(diff.err)")
                #expect(FileManager.default.fileExists(atPath: destination + "/" + Self.shownName + "/beach/thumbnail.jpg"))
            }
        }
    }
}
