import Foundation
import Glibc
import Testing

extension Mounted {
    /// The views of issue 31 on a real mount, driven by the tools people use on them: `find`,
    /// `ls -l`, `cp -r`; and a photo added to SOURCE, then removed, shows and goes with the
    /// kernel told (its entries are kept an hour otherwise).
    @Suite struct ViewsMountTests {
        static func dated(_ path: String, _ date: String) throws {
            let set = Command.run("exiftool", ["-q", "-overwrite_original", "-DateTimeOriginal=" + date, path])
            guard set.status == 0 else { throw HarnessError("exiftool: \(set.err)") }
        }

        /// Asset folders below `folder` (`find -mindepth depth -maxdepth depth -type d`), as paths relative to it.
        static func folders(_ folder: [UInt8], depth: Int) throws -> [String] {
            let find = Command.run("find", [folder.text, "-mindepth", "\(depth)", "-maxdepth", "\(depth)", "-type", "d", "-print0"])
            guard find.status == 0 else { throw HarnessError("find: \(find.err)") }
            return find.nulFields.map { String($0.text.dropFirst(folder.text.count + 1)) }.sorted()
        }

        @Test func datesVideosAndFavoritesAreFoldersEveryToolReads() throws {
            let library = Library(sourceName: "Photos", albums: [Library.Album(name: Array("Trip".utf8), assets: [
                Library.Asset(name: Array("a".utf8), source: Array("Trip/a.jpg".utf8), sample: "cameras/Casio_EX-S1.jpg"),
                Library.Asset(name: Array("b".utf8), source: Array("Trip/b.jpg".utf8), sample: "cameras/Canon_EOS_7D.jpg"),
            ])])
            try withScratch(library, changesSource: true) { scratch in
                try Self.dated(scratch.source + "/Trip/a.jpg", "2023:09:01 10:00:00")
                try Self.dated(scratch.source + "/Trip/b.jpg", "2023:09:02 10:00:00")
                try LocalDateTests.clip(scratch.source + "/Trip/clip.mp4", utc: "2022-05-01T12:00:00Z")
                let mount = try scratch.mount()
                let read = eventually(timeout: 60) { (try? Self.folders(mount.bytes / "dates", depth: 3).count) == 3 }
                #expect(read, "not all dated 60 s after mounting: \(String(describing: try? mount.stats()))")

                // find: each asset once, on its day; the clip in videos/<YYYY>/ too.
                #expect(try Self.folders(mount.bytes / "dates", depth: 3) == ["2022/2022-05-01/clip", "2023/2023-09-01/a", "2023/2023-09-02/b"])
                #expect(try Self.folders(mount.bytes / "videos", depth: 2) == ["2022/clip"])
                #expect(RawFiles.names(in: mount.bytes / "favorites") == [], "nothing rated (ratings are read by i31-meta)")
                // ls -l: link counts are 2 + subfolders + members.
                let year = try RawFiles.status(mount.bytes / "dates" / "2023").get()
                let day = try RawFiles.status(mount.bytes / "dates" / "2023" / "2023-09-01").get()
                #expect(year.st_nlink == 4 && day.st_nlink == 3, "\(year.st_nlink) \(day.st_nlink)")
                let listing = Command.run("ls", ["-l", mount.point + "/dates/2023"])
                #expect(listing.status == 0 && listing.out.contains("2023-09-01") && listing.out.contains("2023-09-02"), "\(listing.out) \(listing.err)")
                // cp -r: the clip's original is its source's bytes.
                let copy = scratch.path + "/copy"
                let copied = Command.run("cp", ["-r", mount.point + "/videos", copy], timeout: 120)
                #expect(copied.status == 0, "\(copied.err)")
                #expect(Command.run("cmp", [copy + "/2022/clip/original.mp4", scratch.source + "/Trip/clip.mp4"]).status == 0)
                #expect(try RawFiles.status(Array((copy + "/2022/clip/thumbnail.jpg").utf8)).get().st_size > 0)

                // A photo added shows in its day; removed, it goes, though its entry was just looked up.
                let added = mount.bytes / "dates" / "2023" / "2023-09-03" / "c"
                try Self.dated(scratch.path + "/c.jpg", "2023:09:03 10:00:00", copying: "cameras/HTC_Desire.jpg")  // a picture of its own: a copy of a is in no view
                let start = Date()
                #expect(rename(scratch.path + "/c.jpg", scratch.source + "/Trip/c.jpg") == 0)
                #expect(eventually(timeout: 20, interval: 0.05) { statErrno(added / "original.jpg") == 0 }, "c not under dates/ within 20 s")
                print("a photo added appeared under dates/ after \(Date().timeIntervalSince(start)) s")
                let removedAt = Date()
                #expect(unlink(scratch.source + "/Trip/c.jpg") == 0)
                #expect(eventually(timeout: 20, interval: 0.05) { statErrno(added) == ENOENT }, "c still under dates/ 20 s after it went")
                print("a photo removed left dates/ after \(Date().timeIntervalSince(removedAt)) s")
                #expect(statErrno(mount.bytes / "dates" / "2023" / "2023-09-03") == ENOENT, "its day went with it")
            }
        }
    }
}

extension Mounted.ViewsMountTests {
    /// `sample` copied to `path` with DateTimeOriginal `date`.
    static func dated(_ path: String, _ date: String, copying sample: String) throws {
        try RawFiles.write(try TestData.contents(sample), to: Array(path.utf8))
        try dated(path, date)
    }
}
