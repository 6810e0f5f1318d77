import Catalog
import Foundation
import Posix
import Testing
@testable import AssetFS

/// Keywords, people, ratings and favorite marks reach the catalog from photos (written with
/// exiftool) and their sidecars (an `.xmp` exiftool makes, a Takeout JSON), a sidecar's replacing
/// the photo's own, and follow an edit of the sidecar.
@Suite struct LabelSidecarTests {
    @Test func labelsOfPhotosAndSidecarsAreStoredAndFollowAnEdit() throws {
        let fixture = Fixture(["L/tagged.jpg": "orientation/Landscape_1.jpg", "L/raw.jpg": "malformed/grayscale.jpg",
                               "L/takeout.jpg": "malformed/grayscale.jpg", "L/plain.jpg": "orientation/Landscape_1.jpg"])
        let folder = fixture.source.appending(FilePath("L")).description
        try exiftool(["-overwrite_original", "-XMP-dc:Subject=Embedded", "-IPTC:Keywords=Iptc", "-XMP:Rating=2",
                      "-XMP-mwg-rs:RegionInfo={RegionList=[{Name=Anna,Type=Face}]}", folder + "/tagged.jpg"])
        try exiftool(["-overwrite_original", "-IPTC:Keywords=Iptc", "-XMP-microsoft:RatingPercent=99", folder + "/plain.jpg"])
        try exiftool(["-XMP-dc:Subject=Sidecar", folder + "/tagged.xmp"])  // replaces the keywords; the rating and people stay
        try exiftool(["-XMP-lr:HierarchicalSubject=Trips|Norway", "-XMP:Rating=5", "-XMP-MP:RegionInfoMP={Regions=[{PersonDisplayName=Bob}]}",
                      folder + "/raw.xmp"])
        try Data(#"{"title": "takeout.jpg", "favorited": true, "people": [{"name": "A\u0000B/C"}, {"name": "Carla"}]}"#.utf8)
            .write(to: URL(fileURLWithPath: folder + "/takeout.jpg.json"))
        let fs = try fixture.fileSystem()
        fs.readPendingProperties()
        func stored(_ name: String) throws -> CatalogStore.Properties {
            try #require(fs.catalog.read { catalog in catalog.photo(at: FilePath("L/" + name)).flatMap { catalog.properties(ofPhoto: $0.id) } })
        }
        let tagged = try stored("tagged.jpg"), raw = try stored("raw.jpg"), takeout = try stored("takeout.jpg"), plain = try stored("plain.jpg")
        #expect(tagged.keywords == [["Sidecar"]] && tagged.people == ["Anna"] && tagged.rating == 2 && !tagged.favorite)
        #expect(raw.keywords == [["Trips", "Norway"]] && raw.people == ["Bob"] && raw.rating == 5)
        #expect(takeout.keywords.isEmpty && takeout.people == ["A\u{0}B/C", "Carla"] && takeout.rating == nil && takeout.favorite,
                "names are stored as written, a NUL too: \(takeout.people)")
        #expect(plain.keywords == [["Iptc"]] && plain.people.isEmpty && plain.rating == 5)

        try exiftool(["-overwrite_original", "-XMP-lr:HierarchicalSubject+=Trips|Bergen", "-XMP:Rating=3", folder + "/raw.xmp"])
        _ = fs.rescan()
        fs.readPendingProperties()
        let edited = try stored("raw.jpg")
        #expect(edited.keywords == [["Trips", "Norway"], ["Trips", "Bergen"]] && edited.rating == 3 && edited.people == ["Bob"])
    }

    func exiftool(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/exiftool")
        process.arguments = ["-q"] + arguments
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "exiftool \(arguments)")
    }
}
