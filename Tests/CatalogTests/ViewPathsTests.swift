import Testing
@testable import Catalog

/// Where a photo belongs in the views that follow from its own properties (`ViewPath.of`), from
/// properties built here, odd ones included.
@Suite struct ViewPathsTests {
    static func properties(_ change: (inout CatalogStore.Properties) -> Void = { _ in }) -> CatalogStore.Properties {
        var properties = CatalogStore.Properties(date: "2023-09-01T10:00:00", dateSource: .exifOriginal, day: 20230901)
        change(&properties)
        return properties
    }

    static func paths(_ properties: CatalogStore.Properties, isVideo: Bool = false) -> [String] {
        ViewPath.of(properties, isVideo: isVideo).map { path in
            ([String(describing: path.view)] + path.folders.map { String(decoding: $0, as: UTF8.self) }).joined(separator: "/")
        }
    }

    @Test func aPlainPhotoIsOnlyDated() {
        #expect(Self.paths(Self.properties()) == ["dates/2023/2023-09-01"])
        #expect(Self.paths(Self.properties { $0.day = 9991231 }) == ["dates/0999/0999-12-31"])
    }

    @Test func eachViewFollowsItsProperty() {
        let properties = Self.properties {
            $0.rating = 4
            $0.keywords = [["Travel", "Norway", "Bergen"], ["beach"]]
            $0.people = ["Anna", "Bo"]
            $0.place = Place(country: "Norway", region: "Vestland", city: "Bergen")
        }
        #expect(Self.paths(properties, isVideo: true) == [
            "dates/2023/2023-09-01", "videos/2023", "favorites", "tags/Travel/Norway/Bergen", "tags/beach", "people/Anna", "people/Bo",
            "places/Norway/Vestland/Bergen"])
        #expect(Self.paths(Self.properties { $0.favorite = true }).contains("favorites"))
        #expect(Self.paths(Self.properties { $0.place = Place(country: "Monaco", city: "Monaco") }).contains("places/Monaco/Monaco"))
    }

    @Test func ratingsBelowFourAreNoFavorites() {
        for rating in [-1, 0, 3] { #expect(!Self.paths(Self.properties { $0.rating = rating }).contains("favorites"), "\(rating)") }
        #expect(Self.paths(Self.properties { $0.rating = 99 }).contains("favorites"), "an odd rating of 99 is still high")
    }

    @Test func oddNamesBecomeFolderNamesOrNothing() {
        let long = String(repeating: "é", count: 150)  // 300 bytes
        let properties = Self.properties {
            $0.people = ["AC/DC", "nul\u{0}led", "  ", "", ".", "..", " trimmed ", long, "Anna", "Anna"]
            $0.keywords = [[], ["", "  "], ["a", "", "b"], Array(repeating: "deep", count: 40)]
        }
        let paths = ViewPath.of(properties, isVideo: false)
        let people = paths.filter { $0.view == .people }.map { String(decoding: $0.folders[0], as: UTF8.self) }
        #expect(people.prefix(3) == ["AC／DC", "nulled", "trimmed"])
        #expect(people.count == 5, "blank, dot names and the duplicate are left out: \(people)")
        #expect(paths.allSatisfy { $0.folders.allSatisfy { $0.count <= 255 && !$0.contains(0) && !$0.contains(UInt8(ascii: "/")) } })
        let tags = paths.filter { $0.view == .tags }
        #expect(tags.map(\.folders.count) == [2, ViewPath.maximumDepth], "empty levels dropped, a deep hierarchy cut: \(tags)")
    }

    @Test func aThousandPeopleAreAThousandFolders() {
        let properties = Self.properties { $0.people = (0..<1000).map { "Person \($0)" } }
        #expect(ViewPath.of(properties, isVideo: false).filter { $0.view == .people }.count == 1000)
    }
}
