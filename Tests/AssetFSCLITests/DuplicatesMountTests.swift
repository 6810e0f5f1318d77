import Foundation
import Glibc
import Testing

extension Mounted {
    /// Duplicates on a live mount (issue 32): a Takeout album's photo and its copy in
    /// `Photos from 2002/` are one asset in dates/ and events/, each in its own groups/ album;
    /// the one shown deleted, the other takes its place.
    @Suite struct DuplicatesMountTests {
        static let library = Library(sourceName: "Takeout", albums: [
            Library.Album(name: Array("Trip".utf8), assets: [
                Library.Asset(name: Array("PXL_1".utf8), source: Array("Trip/PXL_1.jpg".utf8), sample: "cameras/Casio_EX-S1.jpg"),
            ]),
            Library.Album(name: Array("Photos from 2002".utf8), assets: [
                Library.Asset(name: Array("PXL_1".utf8), source: Array("Photos from 2002/PXL_1.jpg".utf8), sample: "cameras/Casio_EX-S1.jpg"),
            ]),
        ])

        /// The asset folders under `top` (dates/ or events/: year, day or event, asset) and the
        /// source each shows.
        static func members(_ top: [UInt8]) -> [String] {
            let found = Command.run("find", [String(decoding: top, as: UTF8.self), "-mindepth", "3", "-maxdepth", "3", "-type", "d"]).out
            return found.split(separator: "\n").map { path in
                (try? RawFiles.extendedAttribute("user.assetfs.source", of: Array(path.utf8)).get()).map { String(decoding: $0, as: UTF8.self) } ?? "?"
            }.sorted()
        }

        @Test func copiesAreOneAssetAndTheNextTakesOverWhenTheFirstGoes() throws {
            try withScratch(Self.library, changesSource: true) { scratch in
                let mount = try scratch.mount()
                let dates = mount.bytes / "dates", events = mount.bytes / "events"
                let copies = ["Photos from 2002/PXL_1.jpg", "Trip/PXL_1.jpg"]
                // The first found (the catalog scans Photos from 2002 before Trip) represents both.
                let once = eventually(timeout: 30) { Self.members(dates) == [copies[0]] && Self.members(events) == [copies[0]] }
                #expect(once, "dates/ \(Self.members(dates)), events/ \(Self.members(events))")
                #expect(RawFiles.names(in: mount.groups / "Trip")?.contains(Array("PXL_1".utf8)) == true, "the copy stays in its album")
                #expect(unlink(scratch.source + "/" + copies[0]) == 0)
                let tookOver = eventually { Self.members(dates) == [copies[1]] && Self.members(events) == [copies[1]] }
                #expect(tookOver, "dates/ \(Self.members(dates)), events/ \(Self.members(events))")
            }
        }
    }
}
