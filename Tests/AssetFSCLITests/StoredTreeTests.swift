import Foundation
import Glibc
import Testing

extension Mounted {
    /// The tree is kept in a catalog beside the cache: a change costs what it touches, a remount
    /// serves what is stored, and a SOURCE that is away still shows what was cached.
    @Suite struct StoredTreeTests {
        static let library = Library(sourceName: "Photos", albums: (1...6).map { n in
            Library.Album(name: Array("Album\(n)".utf8), assets: [
                Library.Asset(name: Array("p\(n)".utf8), source: Array("Album\(n)/p\(n).jpg".utf8), sample: "cameras/Casio_EX-S1.jpg"),
            ])
        })

        @Test func aChangeReadsOnlyTheFolderItNames() throws {
            try withScratch(Self.library, changesSource: true) { scratch in
                let mount = try scratch.mount()
                let before = try mount.stats().foldersRead
                #expect(before == 7, "the first scan reads SOURCE and its 6 albums")
                let copy = Command.run("cp", [scratch.source + "/Album3/p3.jpg", scratch.source + "/Album3/new.jpg"])
                #expect(copy.status == 0)
                #expect(eventually(timeout: 10) { RawFiles.names(in: mount.groups / "Album3")?.contains(Array("new".utf8)) == true })
                let after = try mount.stats().foldersRead
                #expect((before + 1...before + 2).contains(after), "read \(after - before) folders for a change in one")
            }
        }

        @Test func aRemountServesTheSameNamesAndNumbers() throws {
            try withScratch(Self.library) { scratch in
                let first = try scratch.mount()
                let paths = [first.groups / "Album2", first.groups / "Album2" / "p2", first.groups / "Album2" / "p2" / "original.jpg",
                             first.bytes / "thumbnails" / "Album2" / "p2.jpg"]
                let inodes = paths.map { RawFiles.status($0).map(\.st_ino) }
                first.unmount()
                let second = try scratch.mount()
                #expect(paths.map { RawFiles.status($0).map(\.st_ino) } == inodes)
                #expect(try second.stats().foldersRead <= 7, "checked in the background, not before serving")
                // d_ino in a listing is the st_ino of the name (NFS re-export relies on it).
                let listed = Command.run("ls", ["-i1", "--color=never", scratch.mountpoint + "/groups/Album2"])
                let line = listed.out.split(separator: "\n").first { $0.hasSuffix(" p2") }.map(String.init) ?? ""
                #expect(UInt64(line.split(separator: " ").first ?? "") == (try? RawFiles.status(paths[1]).get()).map { UInt64($0.st_ino) })
            }
        }

        @Test func aSourceThatIsAwayMountsFromTheCatalog() throws {
            try withScratch(Self.library, changesSource: true) { scratch in
                let first = try scratch.mount()
                let thumbnail = first.groups / "Album1" / "p1" / "thumbnail.jpg"
                let cached = try RawFiles.read(thumbnail).get()
                first.unmount()
                #expect(rename(scratch.source, scratch.source + ".away") == 0)
                defer { _ = rename(scratch.source + ".away", scratch.source) }
                let offline = try scratch.mount()
                #expect(RawFiles.names(in: offline.groups)?.count == 6, "the stored tree")
                #expect(try RawFiles.read(thumbnail).get() == cached, "cached renditions stay readable")
                #expect(try offline.stats().sourceOnline == 0)
                let started = Date()
                #expect(RawFiles.read(offline.groups / "Album2" / "p2" / "fullscreen.jpg").isFailure, "nothing to render from")
                #expect(Date().timeIntervalSince(started) < 2, "fails fast")
                #expect(rename(scratch.source + ".away", scratch.source) == 0)
                #expect(eventually(timeout: 10) { (try? offline.stats().sourceOnline) == 1 }, "SOURCE back at its path is seen")
                #expect((try? RawFiles.read(offline.groups / "Album2" / "p2" / "fullscreen.jpg").get())?.starts(with: [0xFF, 0xD8]) == true)
            }
        }
    }
}

extension Result {
    var isFailure: Bool {
        if case .failure = self { return true }
        return false
    }
}
