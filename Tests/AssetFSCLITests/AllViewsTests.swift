import Foundation
import Glibc
import Places
import Testing

extension Mounted {
    /// One library exercising every view at once, its tree compared with what exiftool reads of
    /// the files (`exiftool -j -struct -n`) and the Takeout JSON says: keywords flat, hierarchical,
    /// digiKam's and IPTC's; MWG and Microsoft regions; ratings and Windows' percent; GPS; a video.
    @Suite struct AllViewsTests {
        static let names = ["m1", "m2", "m3", "m4"]
        static let library = Library(sourceName: "Photos", albums: [
            Library.Album(name: Array("Mix".utf8), assets: names.map {
                Library.Asset(name: Array($0.utf8), source: Array("Mix/\($0).jpg".utf8), sample: "orientation/Landscape_1.jpg")
            }),
        ])

        static func gps(_ latitude: Double, _ longitude: Double) -> [String] {
            ["-n", "-GPSLatitude=\(abs(latitude))", "-GPSLatitudeRef=\(latitude < 0 ? "S" : "N")",
             "-GPSLongitude=\(abs(longitude))", "-GPSLongitudeRef=\(longitude < 0 ? "W" : "E")"]
        }

        /// exiftool's arguments for each photo.
        static let labels: [String: [String]] = [
            "m1": ["-DateTimeOriginal=2021:06:01 12:00:00", "-XMP-dc:Subject=Beach", "-XMP-dc:Subject=Spain", "-XMP-dc:Subject=Travel",
                   "-XMP-lr:HierarchicalSubject=Travel|Spain", "-XMP:Rating=4",
                   "-XMP-mwg-rs:RegionInfo={RegionList=[{Name=Anna,Type=Face},{Type=Face},{Name=Ball,Type=Pet}]}"] + gps(-33.8568, 151.2153),
            "m2": ["-DateTimeOriginal=2021:06:02 12:00:00", "-IPTC:Keywords=Family", "-IPTC:Keywords=Home",
                   "-XMP-MP:RegionInfoMP={Regions=[{PersonDisplayName=Bob}]}", "-XMP-microsoft:RatingPercent=75"] + gps(35.6595, 139.7005),
            "m3": ["-DateTimeOriginal=2022:01:10 09:00:00", "-XMP-digiKam:TagsList=People/Dora", "-XMP-digiKam:TagsList=Pets",
                   "-XMP-digiKam:TagsList=Pets/Cat", "-XMP:Rating=3"],
            "m4": ["-DateTimeOriginal=2022:01:10 10:00:00", "-XMP:Rating=1", "-XMP-microsoft:RatingPercent=99"] + gps(64.1466, -21.9426),
        ]
        static let takeout = [("m3", #"{"title": "m3.jpg", "favorited": true, "people": [{"name": "Carla"}, {"name": "Dora"}]}"#),
                              ("m4", #"{"title": "m4.jpg", "favorited": false}"#)]

        /// A field exiftool prints as a string for one value and an array for more.
        static func strings(_ value: Any?) -> [String] {
            (value as? [Any] ?? (value.map { [$0] } ?? [])).map { "\($0)" }
        }

        /// The view paths (view/…/asset) a file's exiftool record and Takeout JSON call for.
        static func expectedPaths(_ name: String, _ record: [String: Any], takeout: [String: Any]?) -> Set<String> {
            var result: Set<String> = []
            var people: [String] = []
            for region in (record["RegionInfo"] as? [String: Any])?["RegionList"] as? [[String: Any]] ?? [] {
                if let person = region["Name"] as? String, ["Face", nil].contains(region["Type"] as? String) { people.append(person) }
            }
            people += ((record["RegionInfoMP"] as? [String: Any])?["Regions"] as? [[String: Any]] ?? []).compactMap { $0["PersonDisplayName"] as? String }
            var paths = strings(record["HierarchicalSubject"]).map { $0.split(separator: "|").map(String.init) }
            for path in strings(record["TagsList"]).map({ $0.split(separator: "/").map(String.init) }) {
                if path.first == "People" { people.append(path.last!) } else { paths.append(path) }
            }
            people += (takeout?["people"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
            let flat = (strings(record["Subject"]) + strings(record["Keywords"])).filter { !Set(paths.joined()).contains($0) && !people.contains($0) }
            let prefixes = Set(paths.flatMap { path in (1..<path.count).map { Array(path.prefix($0)) } })
            for tag in (paths + flat.map { [$0] }) where !prefixes.contains(tag) { result.insert((["tags"] + tag + [name]).joined(separator: "/")) }
            for person in people { result.insert("people/\(person)/\(name)") }

            // xmp:Rating first; else Windows' percent as its shell reads it (88-99: five stars, 63-87: four…).
            let stars = (record["Rating"] as? Int).flatMap { (-1...5).contains($0) ? $0 : nil }
                ?? (record["RatingPercent"] as? Int).map { percent in [0, 1, 13, 38, 63, 88].lastIndex { $0 <= percent } ?? 0 }
            if let stars, stars >= 4 { result.insert("favorites/\(name)") }
            if takeout?["favorited"] as? Bool == true { result.insert("favorites/\(name)") }
            if let latitude = record["GPSLatitude"] as? Double, let longitude = record["GPSLongitude"] as? Double,
               let place = PlaceFinder.place(latitude: latitude, longitude: longitude) {
                result.insert("places/\(place.country)/\(place.region)/\(place.city)/\(name)")
            }
            if let taken = record["DateTimeOriginal"] as? String {
                let day = taken.prefix(10).replacingOccurrences(of: ":", with: "-")
                result.insert("dates/\(day.prefix(4))/\(day)/\(name)")
            }
            return result
        }

        /// Every member folder under the views: the folders holding an `original.*`, relative to the mount.
        static func members(_ root: [UInt8]) throws -> Set<String> {
            let views = ["dates", "places", "people", "tags", "favorites", "videos"].map { root.text + "/" + $0 }
            let find = Command.run("find", views + ["-name", "original.*", "-print0"], timeout: 120)
            guard find.status == 0 else { throw HarnessError("find: \(find.err)") }
            return Set(find.nulFields.map { path in
                String(String(decoding: path, as: UTF8.self).dropFirst(root.count + 1).split(separator: "/").dropLast().joined(separator: "/"))
            })
        }

        @Test func everyViewIsWhatExiftoolReadsOfTheFiles() throws {
            try withScratch(Self.library, changesSource: true) { scratch in
                let mix = scratch.source + "/Mix"
                for (name, arguments) in Self.labels {
                    let written = Command.run("exiftool", ["-q", "-overwrite_original"] + arguments + ["\(mix)/\(name).jpg"])
                    #expect(written.status == 0, "\(name): \(written.err)")
                }
                for (name, json) in Self.takeout { try RawFiles.write(Array(json.utf8), to: Array("\(mix)/\(name).jpg.json".utf8)) }
                try LocalDateTests.clip(mix + "/clip.mp4", utc: "2022-05-01T12:00:00Z")

                var expected: Set<String> = ["videos/2022/clip"]
                let read = Command.run("exiftool", ["-j", "-struct", "-n"] + Self.names.map { "\(mix)/\($0).jpg" })
                let records = try #require(try JSONSerialization.jsonObject(with: Data(read.stdout)) as? [[String: Any]])
                for record in records {
                    let name = String((record["SourceFile"] as? String ?? "").split(separator: "/").last!.dropLast(4))
                    let json = Self.takeout.first { $0.0 == name }.flatMap { try? JSONSerialization.jsonObject(with: Data($0.1.utf8)) as? [String: Any] }
                    expected.formUnion(Self.expectedPaths(name, record, takeout: json))
                }
                // The clip's day is its UTC creation time in this process's zone (the daemon's).
                let clipDay = DateFormatter()
                clipDay.dateFormat = "yyyy-MM-dd"
                let day = clipDay.string(from: ISO8601DateFormatter().date(from: "2022-05-01T12:00:00Z")!)
                expected.insert("dates/\(day.prefix(4))/\(day)/clip")
                print("expected from exiftool: \(expected.sorted())")

                let mount = try scratch.mount()
                let complete = eventually(timeout: 60) { (try? Self.members(mount.bytes)) == expected }
                let shown = try Self.members(mount.bytes)
                #expect(complete, "missing: \(expected.subtracting(shown).sorted()), unexpected: \(shown.subtracting(expected).sorted())")
                // events/: each photo and the clip once, under its year.
                let events = try ViewsMountTests.folders(mount.bytes / "events", depth: 3)
                #expect(events.count == 5 && Set(events.map { $0.split(separator: "/").last! }) == ["m1", "m2", "m3", "m4", "clip"], "events/: \(events)")
                for event in events {
                    let asset = String(event.split(separator: "/").last!)
                    #expect(expected.contains { $0.hasPrefix("dates/\(event.prefix(4))/") && $0.hasSuffix("/" + asset) }, "\(event): not its year")
                }
            }
        }
    }
}
