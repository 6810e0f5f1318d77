import Foundation
import Glibc
import Testing

extension Mounted {
    /// Asset ids on a real mount (issue 32 items 1 and 2): `user.assetfs.id` and `ids/<id>` stay
    /// the same across a remount, a fresh catalog, a rename, a move to another album, an album
    /// rename and a metadata edit written into the file.
    @Suite struct ContentIDMountTests {
        static let library = Library(sourceName: "Photos", albums: [
            Library.Album(name: Array("A".utf8), assets: [
                Library.Asset(name: Array("a".utf8), source: Array("A/a.jpg".utf8), sample: "cameras/Casio_EX-S1.jpg"),
                Library.Asset(name: Array("b".utf8), source: Array("A/b.jpg".utf8), sample: "formats/Nikon_D1X_AdobeRGB.jpg"),
            ]),
            Library.Album(name: Array("B".utf8), assets: [
                Library.Asset(name: Array("c".utf8), source: Array("B/c.png".utf8), sample: "formats/sampleWithExifData.png"),
            ]),
        ])

        /// The asset folder's id, once the background has read it (within 15 s).
        static func id(_ asset: [UInt8]) -> String? {
            var found: String?
            _ = eventually(timeout: 15) {
                found = try? RawFiles.extendedAttribute("user.assetfs.id", of: asset).get().text
                return found != nil
            }
            return found
        }

        static func linkTarget(_ path: [UInt8]) -> String? {
            var buffer = [CChar](repeating: 0, count: 4096)
            let length = RawFiles.withPath(path) { readlink($0, &buffer, buffer.count) }
            return length < 0 ? nil : String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }

        /// `ids/<id>` points to `groups/<asset>` (the same folder: the same inode once followed).
        static func expectLink(_ mount: Mount, _ id: String, to asset: String, sourceLocation: SourceLocation = #_sourceLocation) {
            let link = mount.bytes / "ids" / id
            let pointed = eventually(timeout: 10) { linkTarget(link) == "../groups/" + asset }
            #expect(pointed, "ids/\(id) points to \(linkTarget(link) ?? "nothing"), not ../groups/\(asset)", sourceLocation: sourceLocation)
            let followed = try? RawFiles.status(link).get(), folder = try? RawFiles.status(mount.groups / asset).get()
            #expect(followed != nil && followed?.st_ino == folder?.st_ino, sourceLocation: sourceLocation)
            #expect(((try? RawFiles.status(link, followLinks: false).get())?.st_mode ?? 0) & S_IFMT == S_IFLNK, sourceLocation: sourceLocation)
            #expect(statErrno(link / "thumbnail.jpg") == 0, sourceLocation: sourceLocation)
        }

        @Test func idsStayThroughRemountsRenamesMovesAndEdits() throws {
            try withScratch(Self.library, changesSource: true) { scratch in
                var mount = try scratch.mount()
                let id = try #require(Self.id(mount.groups / "A" / "a"))
                #expect(id.count == 26 && id.allSatisfy { "abcdefghijklmnopqrstuvwxyz234567".contains($0) }, "\(id)")
                #expect(Self.id(mount.groups / "A" / "b") != id && Self.id(mount.groups / "B" / "c") != id)
                Self.expectLink(mount, id, to: "A/a")
                #expect(RawFiles.names(in: mount.bytes / "ids") == [], "ids/ lists nothing")
                #expect(RawFiles.names(in: mount.bytes)?.contains(Array("ids".utf8)) == true)
                #expect(statErrno(mount.bytes / "ids" / String(repeating: "a", count: 26)) == ENOENT)
                #expect(statErrno(mount.bytes / "ids" / "not-an-id") == ENOENT)

                mount.unmount()
                mount = try scratch.mount()
                #expect(Self.id(mount.groups / "A" / "a") == id, "after a remount")
                Self.expectLink(mount, id, to: "A/a")

                mount.unmount()
                for suffix in ["", "-wal", "-shm"] { unlink(scratch.cache + suffix) }
                mount = try scratch.mount()
                #expect(Self.id(mount.groups / "A" / "a") == id, "with a fresh catalog")
                Self.expectLink(mount, id, to: "A/a")

                #expect(rename(scratch.source + "/A/a.jpg", scratch.source + "/A/renamed.jpg") == 0)
                #expect(eventually { statErrno(mount.groups / "A" / "renamed") == 0 })
                #expect(Self.id(mount.groups / "A" / "renamed") == id, "after a rename")
                Self.expectLink(mount, id, to: "A/renamed")

                #expect(rename(scratch.source + "/A/renamed.jpg", scratch.source + "/B/renamed.jpg") == 0)
                #expect(eventually { statErrno(mount.groups / "B" / "renamed") == 0 })
                #expect(Self.id(mount.groups / "B" / "renamed") == id, "after a move to another album")
                Self.expectLink(mount, id, to: "B/renamed")

                #expect(rename(scratch.source + "/B", scratch.source + "/Holiday") == 0)
                #expect(eventually { statErrno(mount.groups / "Holiday" / "renamed") == 0 })
                #expect(Self.id(mount.groups / "Holiday" / "renamed") == id, "after an album rename")
                Self.expectLink(mount, id, to: "Holiday/renamed")

                let edit = Command.run("exiftool", ["-q", "-overwrite_original", "-XMP-dc:Subject=Norway", "-XMP-xmp:Rating=5",
                                                    "-DateTimeOriginal=2020:01:02 03:04:05", scratch.source + "/Holiday/renamed.jpg"])
                #expect(edit.status == 0, "\(edit.err)")
                let redated = eventually(timeout: 15) {
                    (try? RawFiles.extendedAttribute("user.assetfs.date", of: mount.groups / "Holiday" / "renamed").get().text)?.hasPrefix("2020-01-02") == true
                }
                #expect(redated, "the edit was not read again")
                #expect(Self.id(mount.groups / "Holiday" / "renamed") == id, "after exiftool wrote tags into the file")
                Self.expectLink(mount, id, to: "Holiday/renamed")
            }
        }
    }
}
