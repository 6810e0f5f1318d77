import Foundation
import Glibc
import Testing

extension Mounted {
    /// events/ on a live mount whose SOURCE changes: photos dated by exiftool cluster into events,
    /// a photo that fills the gap between two joins them, its removal splits them again (the
    /// kernel told each time), and a member's files are its groups/ asset's.
    @Suite struct EventsMountTests {
        static let library = Library(sourceName: "Photos", albums: [
            Library.Album(name: Array("Trip".utf8), assets: [
                Library.Asset(name: Array("a".utf8), source: Array("Trip/a.jpg".utf8), sample: "cameras/Casio_EX-S1.jpg"),
            ]),
        ])

        /// The fixture JPEG `sample` at `path`, taken on 2023-09-01 at `time`: each photo a picture
        /// of its own (copies of one are one asset in the views).
        static func photo(at path: String, time: String, sample: String) throws {
            try RawFiles.write(try TestData.contents("cameras/\(sample).jpg"), to: Array(path.utf8))
            let dated = Command.run("exiftool", ["-q", "-overwrite_original", "-AllDates=2023:09:01 \(time)", path])
            #expect(dated.status == 0, "\(dated.err)")
        }

        static func names(_ path: [UInt8]) -> [String] {
            (RawFiles.names(in: path) ?? []).map { String(decoding: $0, as: UTF8.self) }.sorted()
        }

        @Test func aPhotoInTheGapJoinsTwoEventsAndItsRemovalSplitsThem() throws {
            try withScratch(Self.library, changesSource: true) { scratch in
                for (name, time, sample) in [("a", "10:00:00", "Casio_EX-S1"), ("b", "11:00:00", "Kodak_DX4330"),
                                             ("c", "15:00:00", "Nikon_D5000"), ("d", "16:00:00", "Sony_Cybershot_3")] {
                    try Self.photo(at: scratch.source + "/Trip/\(name).jpg", time: time, sample: sample)
                }
                try Self.photo(at: scratch.path + "/e.jpg", time: "13:00:00", sample: "Canon_EOS_7D")
                let mount = try scratch.mount()
                let year = mount.bytes / "events" / "2023"
                let apart = eventually(timeout: 30) { Self.names(year) == ["2023-09-01", "2023-09-01 (2)"] }
                #expect(apart, "events/2023 is not the morning and the afternoon 30 s after mounting: \(Self.names(year))")
                #expect(Self.names(year / "2023-09-01") == ["a", "b"] && Self.names(year / "2023-09-01 (2)") == ["c", "d"])
                let member = try RawFiles.status(year / "2023-09-01" / "a" / "thumbnail.jpg").get()
                let asset = try RawFiles.status(mount.groups / "Trip" / "a" / "thumbnail.jpg").get()
                #expect(member.st_ino == asset.st_ino, "a member's thumbnail is not its asset's")

                #expect(rename(scratch.path + "/e.jpg", scratch.source + "/Trip/e.jpg") == 0)
                let joined = eventually { Self.names(year) == ["2023-09-01"] }
                #expect(joined, "the photo at 13:00 did not join the two events within 10 s: \(Self.names(year))")
                #expect(Self.names(year / "2023-09-01") == ["a", "b", "c", "d", "e"])

                #expect(unlink(scratch.source + "/Trip/e.jpg") == 0)
                let split = eventually { Self.names(year) == ["2023-09-01", "2023-09-01 (2)"] }
                #expect(split, "removing the photo at 13:00 did not split the event within 10 s: \(Self.names(year))")
                #expect(Self.names(year / "2023-09-01") == ["a", "b"] && Self.names(year / "2023-09-01 (2)") == ["c", "d"])
            }
        }
    }
}
