import Foundation
import Glibc
import Testing

extension Mounted {
    /// The tree a mount shows: album and asset names, what is left out, and that looking costs no render.
    @Suite struct TreeTests {
        @Test func findListsExactlyTheExpectedTree() throws {
            let library = Library.naming
            try withScratch(library) { scratch in
                let mount = try scratch.mount()
                let found = Command.run("find", Library.findArguments(mount.point))
                #expect(found.status == 0, "find: \(found.err)")
                let actual = Set(found.nulFields)
                let expected = library.expectedPaths(mount: mount.bytes)
                #expect(found.nulFields.count == actual.count, "find printed a path twice")
                #expect(actual.subtracting(expected).isEmpty, "unexpected: \(actual.subtracting(expected).map(\.text).sorted())")
                #expect(expected.subtracting(actual).isEmpty, "missing: \(expected.subtracting(actual).map(\.text).sorted())")

                // Albums in order (bytewise by source path), assets in bytewise order of file name.
                #expect(RawFiles.names(in: mount.groups) == library.albums.map(\.name))
                for album in library.albums {
                    let listed = RawFiles.names(in: mount.groups / album.name)
                    #expect(listed == [Array("thumbnail.jpg".utf8)] + album.assets.map(\.name), "\(album.name.text): \(listed?.map(\.text) ?? [])")
                }

                let stats = try mount.stats()
                #expect(stats.albums == library.albums.count)
                #expect(stats.assets == library.assetCount)
                #expect(stats.skipped == library.skipped, "skipped: .x.jpg, diagram.png, a PNG named fake.jpg, Empty/notes.txt")
                #expect(stats.renders == 0)
            }
        }

        @Test func assetFoldersNameTheirSourceFile() throws {
            let library = Library.naming
            try withScratch(library) { scratch in
                let mount = try scratch.mount()
                for (album, asset) in library.allAssets {
                    let folder = mount.groups / album.name / asset.name
                    let value = RawFiles.extendedAttribute("user.assetfs.source", of: folder)
                    #expect((try? value.get()) == asset.source, "\(folder.text): \(value)")
                }
                // The statistics attribute lives on the mount root only.
                #expect((try? RawFiles.extendedAttribute("user.assetfs.stats", of: mount.bytes).get())?.first == UInt8(ascii: "{"))
                let listed = Command.run("getfattr", ["-d", "-m", "-", mount.point])
                #expect(listed.status == 0 && listed.out.contains("user.assetfs.stats"), "getfattr: \(listed.out) \(listed.err)")
            }
        }

        /// `ls -l` of an album gets its asset folders' attributes with the listing (READDIRPLUS):
        /// they must be exactly what a lookup of each name gives on a mount that never listed it,
        /// and listing with attributes renders nothing.
        @Test func attributesListedWithTheEntriesAreTheLookupsOwn() throws {
            let library = Library.naming
            try withScratch(library) { scratch in
                typealias Seen = [String]
                func describe(_ st: stat) -> Seen {
                    let numbers: [UInt64] = [UInt64(st.st_ino), UInt64(st.st_mode), UInt64(st.st_nlink), UInt64(st.st_uid),
                                             UInt64(st.st_gid), UInt64(st.st_size)]
                    let times: [Int] = [st.st_mtim.tv_sec, st.st_mtim.tv_nsec]
                    return numbers.map { String($0) } + times.map { String($0) }
                }
                var listed: [[UInt8]: Seen] = [:]
                var mount = try scratch.mount()
                for album in library.albums {
                    let ls = Command.run("ls", ["-l", "--color=never", Array(mount.groups / album.name).text])
                    #expect(ls.status == 0, "ls -l: \(ls.err)")
                    for asset in album.assets {
                        let path = mount.groups / album.name / asset.name
                        listed[Array(path.dropFirst(mount.bytes.count))] = (try? RawFiles.status(path).get()).map(describe)
                    }
                }
                #expect(try mount.stats().renders == library.albums.count, "only the posters `ls -l` stats are rendered")
                mount.unmount()
                mount = try scratch.mount()
                for (relative, seen) in listed {
                    let looked = (try? RawFiles.status(mount.bytes + relative).get()).map(describe)
                    #expect(looked == seen, "\(relative.text): listed \(seen) vs looked up \(looked ?? [])")
                }
                #expect(listed.count == library.assetCount)
            }
        }

        @Test func listingRendersNothing() throws {
            let library = Library.naming
            try withScratch(library) { scratch in
                let mount = try scratch.mount()
                let ls = Command.run("ls", ["-R", "--color=never", mount.point])
                #expect(ls.status == 0, "ls -R: \(ls.err)")
                #expect(ls.out.contains("Pictures (2)") && ls.out.contains("thumbnail.jpg.jpg"))
                let find = Command.run("find", Library.findArguments(mount.point, ["-name", "*.jpg"]))
                #expect(find.status == 0, "find: \(find.err)")
                let expected = library.expectedPaths(mount: mount.bytes).filter { $0.split(separator: 0x2F).last.map { Array($0).text }?.hasSuffix(".jpg") == true }
                #expect(Set(find.nulFields) == expected)
                let stats = try mount.stats()
                #expect(stats.renders == 0, "\(stats)")
                #expect(stats.cacheMisses == 0, "\(stats)")
            }
        }
    
        /// A link that stays inside SOURCE is followed; one leading out only with -o follow_symlinks.
        @Test func symlinksLeavingSourceNeedFollowSymlinks() throws {
            func asset(_ name: String, _ sample: String) -> Library.Asset {
                Library.Asset(name: Array(name.utf8), source: Array("Links/\(name).jpg".utf8), sample: sample)
            }
            let a = Library.Asset(name: Array("a".utf8), source: Array("A/a.jpg".utf8), sample: "cameras/Casio_EX-S1.jpg")
            var library = Library(sourceName: "Photos", albums: [
                Library.Album(name: Array("A".utf8), assets: [a]),
                Library.Album(name: Array("Links".utf8), assets: [asset("real", "cameras/Nikon_D5000.jpg")]),
            ])
            library.symlinks = [("Links/inside.jpg", "../A/a.jpg"), ("Links/outside.jpg", "../../outside.jpg")]
            try withScratch(library) { scratch in
                try RawFiles.write(try TestData.contents("cameras/Samsung_GT-I9000_Galaxy_S.jpg"), to: Array((scratch.path + "/outside.jpg").utf8))
                for (options, shown, skipped) in [([String](), ["inside", "real"], 1), (["follow_symlinks"], ["inside", "outside", "real"], 0)] {
                    let mount = try scratch.mount(options: options)
                    defer { mount.unmount() }
                    // The second mount serves the first one's stored tree at once and checks SOURCE
                    // under its own option in the background, at low priority: its change shows
                    // within moments (0.5-0.8 s here; over 10 s beside a million-photo first mount).
                    let expected = (["thumbnail.jpg"] + shown).sorted()
                    var names: [String]?
                    let shows = eventually(timeout: 30, interval: 0.05) {
                        names = RawFiles.names(in: mount.groups / "Links")?.map(\.text).sorted()
                        return names == expected
                    }
                    #expect(shows, "with -o \(options): \(names ?? [])")
                    let stats = try mount.stats()
                    #expect(stats.skipped == skipped && stats.assets == 1 + shown.count, "with -o \(options): \(stats)")
                    let original = try RawFiles.read(mount.groups / "Links" / "inside" / "original.jpg").get()
                    #expect(original == (try TestData.contents("cameras/Casio_EX-S1.jpg")))
                }
            }
        }
    }
}
