import Foundation
import Glibc
import Testing

extension Mounted {
    /// tags/, people/ and favorites/ on a real mount, from photos and sidecars written with
    /// exiftool (and a Takeout JSON), as exiftool reads them; an edit of an `.xmp` sidecar moves
    /// the photo between folders while mounted.
    @Suite struct LabelViewsTests {
        static let library = Library(sourceName: "Photos", albums: [
            Library.Album(name: Array("Trip".utf8), assets: ["a", "b", "c"].map {
                Library.Asset(name: Array($0.utf8), source: Array("Trip/\($0).jpg".utf8), sample: "orientation/Landscape_1.jpg")
            }),
        ])

        static func names(_ path: [UInt8]) -> [String] {
            (RawFiles.names(in: path) ?? []).map { String(decoding: $0, as: UTF8.self) }.sorted()
        }

        static func exiftool(_ arguments: [String]) {
            let result = Command.run("exiftool", ["-q"] + arguments)
            #expect(result.status == 0, "exiftool \(arguments): \(result.err)")
        }

        /// exiftool's `-j -struct` record of `path`.
        static func read(_ path: String) throws -> [String: Any] {
            let output = Command.run("exiftool", ["-j", "-struct", "-XMP:all", path])
            return try #require((try JSONSerialization.jsonObject(with: Data(output.stdout)) as? [[String: Any]])?.first)
        }

        @Test func labelledPhotosAreInTheirViewsAndFollowAnEditedSidecar() throws {
            try withScratch(Self.library, changesSource: true) { scratch in
                let trip = scratch.source + "/Trip"
                Self.exiftool(["-overwrite_original", "-XMP-lr:HierarchicalSubject=Travel|Norway", "-XMP-dc:Subject=Norway", "-XMP:Rating=5",
                               "-XMP-mwg-rs:RegionInfo={RegionList=[{Name=Anna,Type=Face},{Type=Face}]}", trip + "/a.jpg"])
                Self.exiftool(["-XMP-dc:Subject=Sunset", "-XMP-MP:RegionInfoMP={Regions=[{PersonDisplayName=Bob}]}", "-XMP:Rating=2", trip + "/b.xmp"])
                try RawFiles.write(Array(#"{"title": "c.jpg", "favorited": true, "people": [{"name": "Carla"}]}"#.utf8), to: Array((trip + "/c.jpg.json").utf8))
                // What exiftool reads is what the views show.
                let a = try Self.read(trip + "/a.jpg"), b = try Self.read(trip + "/b.xmp")
                #expect(a["HierarchicalSubject"] as? [String] == ["Travel|Norway"] && a["Rating"] as? Int == 5)
                #expect(b["Subject"] as? [String] == ["Sunset"] && b["Rating"] as? Int == 2)

                let mount = try scratch.mount()
                let root = mount.bytes
                let read = eventually(timeout: 30) { Self.names(root / "people") == ["Anna", "Bob", "Carla"] }
                #expect(read, "people/: \(Self.names(root / "people"))")
                #expect(Self.names(root / "tags") == ["Sunset", "Travel"], "Norway flat is Travel|Norway's")
                #expect(Self.names(root / "tags" / "Travel") == ["Norway"] && Self.names(root / "tags" / "Travel" / "Norway") == ["a"])
                #expect(Self.names(root / "tags" / "Sunset") == ["b"])
                #expect(Self.names(root / "people" / "Anna") == ["a"] && Self.names(root / "people" / "Carla") == ["c"])
                #expect(Self.names(root / "favorites") == ["a", "c"], "rated 5, and Takeout's favorite; not b, rated 2")
                let inView = try RawFiles.status(root / "favorites" / "a" / "original.jpg").get()
                let inGroups = try RawFiles.status(mount.groups / "Trip" / "a" / "original.jpg").get()
                #expect(inView.st_ino == inGroups.st_ino, "the same file")

                // The organizer edits b's sidecar: a new keyword in place of Sunset, four stars.
                _ = Self.names(root / "tags" / "Sunset")  // the kernel has seen it: it must be told it went
                Self.exiftool(["-overwrite_original", "-XMP-dc:Subject=Bergen", "-XMP:Rating=4", trip + "/b.xmp"])
                let start = ContinuousClock.now
                let moved = eventually(timeout: 10, interval: 0.05) {
                    Self.names(root / "tags") == ["Bergen", "Travel"] && Self.names(root / "favorites") == ["a", "b", "c"]
                }
                let elapsed = ContinuousClock.now - start
                #expect(moved, "tags/: \(Self.names(root / "tags")), favorites/: \(Self.names(root / "favorites")) after \(elapsed)")
                #expect(statErrno(root / "tags" / "Sunset") == ENOENT && Self.names(root / "tags" / "Bergen") == ["b"])
                #expect(Self.names(root / "people" / "Bob") == ["b"], "the sidecar still names Bob")
            }
        }
    }
}
