import Foundation
import Glibc
import Testing

extension Mounted {
    /// Issue 32 on a live mount: a Takeout photo and its byte-identical copy in `Photos from 2002/`
    /// are rendered once and stored once; the copy edited later gets a rendition of its own.
    @Suite struct SharedRenditionsMountTests {
        static let library = Library(sourceName: "Takeout", albums: [
            Library.Album(name: Array("Trip".utf8), assets: [
                Library.Asset(name: Array("PXL_1".utf8), source: Array("Trip/PXL_1.jpg".utf8), sample: "cameras/Canon_EOS_7D.jpg"),
            ]),
            Library.Album(name: Array("Photos from 2002".utf8), assets: [
                Library.Asset(name: Array("PXL_1".utf8), source: Array("Photos from 2002/PXL_1.jpg".utf8), sample: "cameras/Canon_EOS_7D.jpg"),
            ]),
        ])

        /// One number `sql` selects from the SQLite file at `path` (-1 if it cannot be read).
        static func count(_ path: String, _ sql: String) -> Int {
            Int(Command.run("sqlite3", ["-readonly", path, sql]).out.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
        }

        @Test func copiesShareOneRenditionUntilOneIsEdited() throws {
            try withScratch(Self.library, changesSource: true) { scratch in
                let mount = try scratch.mount()
                let catalog = scratch.path + "/cache.catalog.sqlite"
                let digests = eventually(timeout: 30) { Self.count(catalog, "SELECT count(*) FROM properties WHERE length(rendition_digest) = 16") == 2 }
                #expect(digests, "both copies read whole in the background")
                let trip = mount.groups / "Trip" / "PXL_1" / "thumbnail.jpg", year = mount.groups / "Photos from 2002" / "PXL_1" / "thumbnail.jpg"
                let first = try RawFiles.read(trip).get()
                let before = try mount.stats()
                #expect(try RawFiles.read(year).get() == first, "the same bytes")
                let after = try mount.stats()
                #expect(after.renders == 1 && after.cacheHits > before.cacheHits, "the copy's thumbnail is a cache hit: \(after)")
                #expect(eventually { Self.count(scratch.cache, "SELECT count(*) FROM entries") == 1 }, "one entry in the cache")

                // The copy edited: a new identity, no digest, its own rendition.
                let edited = scratch.source + "/Trip/PXL_1.jpg"
                #expect(Command.run("cp", [TestData.path("cameras/Kodak_DX4330.jpg"), edited]).status == 0)
                let own = eventually(timeout: 30) { (try? RawFiles.read(trip).get()).map { $0 != first && $0.starts(with: [0xFF, 0xD8]) } == true }
                #expect(own, "the edited copy shows its own picture")
                #expect(try RawFiles.read(year).get() == first, "the other copy still shows the shared one")
                #expect(try mount.stats().renders == 2)
            }
        }

        /// `warm` reads the copies' digests before it renders: it stores one thumbnail, which a
        /// mount then serves for both without a render.
        @Test func warmStoresCopiesOnceForTheMount() throws {
            try withScratch(Self.library) { scratch in
                let warm = AssetFS.run(["warm", "-o", "cache=\(scratch.cache)", scratch.source], timeout: 300)
                #expect(warm.status == 0, "warm: \(warm.out) \(warm.err)")
                #expect(warm.out.hasPrefix("rendered 1, already cached 1, failed 0"), "one render, counted once: \(warm.out)")
                #expect(Self.count(scratch.cache, "SELECT count(*) FROM entries") == 1, "one entry for both copies")
                let mount = try scratch.mount()
                let thumbnails = ["Trip", "Photos from 2002"].map { mount.groups / $0 / "PXL_1" / "thumbnail.jpg" }
                #expect(try RawFiles.read(thumbnails[0]).get() == RawFiles.read(thumbnails[1]).get())
                #expect(try mount.stats().renders == 0, "the mount serves what warm stored")
            }
        }
    }
}
