import Foundation
import Glibc
import Testing

extension Mounted {
    /// A photo in every view at once, moved between albums, its GPS rewritten, then deleted, and a new `.xmp` rating
    /// beside another: every view follows, with the kernel told (each old path was looked up before,
    /// so a stale entry would still answer). ViewsMountTests covers dates/ adding and removing,
    /// LabelViewsTests an edited sidecar.
    @Suite struct IncrementalViewsTests {
        static let library = Library(sourceName: "Photos", albums: [
            Library.Album(name: Array("Trip".utf8), assets: [
                Library.Asset(name: Array("a".utf8), source: Array("Trip/a.jpg".utf8), sample: "orientation/Landscape_1.jpg"),
            ]),
            Library.Album(name: Array("Home".utf8), assets: [
                Library.Asset(name: Array("c".utf8), source: Array("Home/c.jpg".utf8), sample: "orientation/Landscape_2.jpg"),
            ]),
        ])

        /// a's folders in every view but events/ (named by the clustering) and videos/.
        static let viewPaths = ["dates/2023/2023-09-01/a", "places/Norway/Vestland/Bergen/a", "people/Anna/a", "tags/Travel/Norway/a", "favorites/a"]

        /// How long until `condition` holds, nil if not within 10 s.
        static func timeUntil(_ condition: () -> Bool) -> Duration? {
            let start = ContinuousClock.now
            return eventually(timeout: 10, interval: 0.02, condition) ? ContinuousClock.now - start : nil
        }

        static func inode(_ path: [UInt8]) -> ino_t? { try? RawFiles.status(path).get().st_ino }

        @Test func aMovedThenDeletedPhotoAndANewSidecarRatingAreFollowedByEveryView() throws {
            try withScratch(Self.library, changesSource: true) { scratch in
                let a = scratch.source + "/Trip/a.jpg"
                let tagged = Command.run("exiftool", ["-q", "-overwrite_original", "-DateTimeOriginal=2023:09:01 10:00:00", "-n",
                                                      "-GPSLatitude=60.3913", "-GPSLatitudeRef=N", "-GPSLongitude=5.3221", "-GPSLongitudeRef=E",
                                                      "-XMP-lr:HierarchicalSubject=Travel|Norway", "-XMP:Rating=5",
                                                      "-XMP-mwg-rs:RegionInfo={RegionList=[{Name=Anna,Type=Face}]}", a])
                #expect(tagged.status == 0, "\(tagged.err)")
                let mount = try scratch.mount()
                let root = mount.bytes
                let paths = Self.viewPaths.map { root / $0 }
                let placed = eventually(timeout: 60) { paths.allSatisfy { statErrno($0 / "original.jpg") == 0 } }
                #expect(placed, "a not in every view: \(Self.viewPaths.filter { statErrno(root / $0) != 0 })")
                let events = try ViewsMountTests.folders(root / "events", depth: 3).filter { $0.hasSuffix("/a") }
                #expect(events.count == 1 && events.first?.hasPrefix("2023/2023-09-01") == true, "a in events/: \(events)")
                let eventPath = root / "events" / (events.first ?? "none")

                // Moved to another album: the same name in every view, now the new file's.
                #expect(rename(a, scratch.source + "/Home/a.jpg") == 0)
                let moved = Self.timeUntil {
                    statErrno(mount.groups / "Trip" / "a") == ENOENT
                        && (paths + [eventPath]).allSatisfy { Self.inode($0 / "original.jpg") == Self.inode(mount.groups / "Home" / "a" / "original.jpg") }
                }
                print("a moved between albums: every view followed after \(String(describing: moved))")
                #expect(moved != nil, "not followed within 10 s: \((paths + [eventPath]).map { "\($0.text): \(statErrno($0))" })")

                // Its GPS rewritten (exiftool replaces the file): places/ follows, Norway's folders go.
                let tokyo = root / "places" / "Japan" / "Tokyo" / "Sakuragaokachō" / "a"
                let retagged = Command.run("exiftool", ["-q", "-overwrite_original", "-n", "-GPSLatitude=35.6595", "-GPSLatitudeRef=N",
                                                        "-GPSLongitude=139.7005", "-GPSLongitudeRef=E", scratch.source + "/Home/a.jpg"])
                #expect(retagged.status == 0, "\(retagged.err)")
                let replaced = Self.timeUntil { statErrno(root / "places" / "Norway") == ENOENT && statErrno(tokyo / "original.jpg") == 0 }
                print("a's GPS rewritten: places/ followed after \(String(describing: replaced))")
                #expect(replaced != nil, "places/: \(RawFiles.names(in: root / "places")?.map(\.text) ?? [])")

                // A new sidecar rates c five stars: it joins favorites/.
                _ = statErrno(root / "favorites" / "c")  // looked up (and missed) first: the kernel must be told it came
                let rated = Command.run("exiftool", ["-q", "-XMP:Rating=5", "-o", scratch.path + "/c.xmp", scratch.source + "/Home/c.jpg"])
                #expect(rated.status == 0, "\(rated.err)")
                #expect(rename(scratch.path + "/c.xmp", scratch.source + "/Home/c.xmp") == 0)
                let favorite = Self.timeUntil { statErrno(root / "favorites" / "c" / "original.jpg") == 0 }
                print("a new .xmp rating: c in favorites/ after \(String(describing: favorite))")
                #expect(favorite != nil && Set(RawFiles.names(in: root / "favorites")?.map(\.text) ?? []) == ["a", "c"])

                // Deleted: gone from every view, and the folders it alone held with it.
                #expect(unlink(scratch.source + "/Home/a.jpg") == 0)
                let gone = Self.timeUntil { (paths + [eventPath]).allSatisfy { statErrno($0) == ENOENT } }
                print("a deleted: gone from every view after \(String(describing: gone))")
                #expect(gone != nil, "still there 10 s after: \((paths + [eventPath]).filter { statErrno($0) != ENOENT }.map(\.text))")
                for emptied in ["dates/2023", "places/Japan", "people/Anna", "tags/Travel", "events/2023"] {
                    #expect(statErrno(root / emptied) == ENOENT, "\(emptied) outlived its only photo")
                }
                #expect(RawFiles.names(in: root / "favorites")?.map(\.text) == ["c"])
            }
        }
    }
}
