import Foundation
import Glibc
import Places
import Testing

extension Mounted {
    /// places/ on a real mount, from GPS positions written with exiftool at run time on several
    /// continents, each photo under the names PlaceFinder gives the position exiftool reads back;
    /// 0,0, out-of-range coordinates and open sea are no place; a Live Photo whose still has no
    /// GPS is placed by its movie's.
    @Suite struct PlacesMountTests {
        /// Name → (latitude, longitude) written into a copy of a plain JPEG.
        static let positions: [(name: String, latitude: Double, longitude: Double)] = [
            ("bergen", 60.3913, 5.3221), ("nairobi", -1.2921, 36.8219), ("buenos-aires", -34.6037, -58.3816),
            ("sydney", -33.8568, 151.2153), ("tokyo", 35.6595, 139.7005), ("reykjavik", 64.1466, -21.9426),
            ("zero", 0, 0), ("atlantic", 30, -40), ("beyond", 95, 200),
        ]

        static let library = Library(sourceName: "Photos", albums: [
            Library.Album(name: Array("World".utf8), assets: positions.map {
                Library.Asset(name: Array($0.name.utf8), source: Array("World/\($0.name).jpg".utf8), sample: "orientation/Landscape_1.jpg")
            }),
        ])

        static func exiftool(_ arguments: [String]) {
            let result = Command.run("exiftool", ["-q", "-overwrite_original"] + arguments)
            #expect(result.status == 0, "exiftool \(arguments): \(result.err)")
        }

        /// What `exiftool -n -GPSLatitude -GPSLongitude` reads of `path` (nil: no position).
        static func position(_ path: String) throws -> (latitude: Double, longitude: Double)? {
            let output = Command.run("exiftool", ["-j", "-n", "-GPSLatitude", "-GPSLongitude", "-GPSCoordinates", path])
            let record = try #require((try JSONSerialization.jsonObject(with: Data(output.stdout)) as? [[String: Any]])?.first)
            if let latitude = record["GPSLatitude"] as? Double, let longitude = record["GPSLongitude"] as? Double { return (latitude, longitude) }
            // QuickTime's ISO 6709 "lat lon alt".
            let parts = (record["GPSCoordinates"] as? String)?.split(separator: " ").compactMap { Double($0) } ?? []
            return parts.count >= 2 ? (parts[0], parts[1]) : nil
        }

        /// Member folders four levels down places/ (country/region/city/asset), relative to it.
        static func placed(_ root: [UInt8]) throws -> [String] {
            try ViewsMountTests.folders(root / "places", depth: 4)
        }

        static func path(of place: Place, _ asset: String) -> String { "\(place.country)/\(place.region)/\(place.city)/\(asset)" }

        @Test func photosAreUnderTheTownTheirGPSNamesAndALivePhotoTakesItsMoviesPosition() throws {
            try withScratch(Self.library, changesSource: true) { scratch in
                let world = scratch.source + "/World"
                for spot in Self.positions {
                    Self.exiftool(["-n", "-GPSLatitude=\(abs(spot.latitude))", "-GPSLatitudeRef=\(spot.latitude < 0 ? "S" : "N")",
                                   "-GPSLongitude=\(abs(spot.longitude))", "-GPSLongitudeRef=\(spot.longitude < 0 ? "W" : "E")", "\(world)/\(spot.name).jpg"])
                }
                // A Live pair whose still's GPS was stripped: the movie's position names its place.
                try RawFiles.write(try TestData.contents("video/iPhone6s_livephoto.mov"), to: scratch.sourceBytes / "World" / "IMG_0020.MOV")
                try LivePhotoChangeTests.makeStill(at: world + "/IMG_0020.HEIC")
                Self.exiftool(["-gps:all=", world + "/IMG_0020.HEIC"])
                #expect(try Self.position(world + "/IMG_0020.HEIC") == nil, "the still keeps no GPS")

                // The expectation: exiftool's reading of each file, named by PlaceFinder.
                var expected: [String] = []
                var positions: [String: (latitude: Double, longitude: Double)] = [:]
                for spot in Self.positions {
                    let read = try #require(try Self.position("\(world)/\(spot.name).jpg"), "\(spot.name): exiftool reads no GPS")
                    positions[spot.name] = read
                    if let place = PlaceFinder.place(latitude: read.latitude, longitude: read.longitude) { expected.append(Self.path(of: place, spot.name)) }
                }
                let movie = try #require(try Self.position(world + "/IMG_0020.MOV"), "the fixture movie has a position")
                let livePlace = try #require(PlaceFinder.place(latitude: movie.latitude, longitude: movie.longitude))
                expected.append(Self.path(of: livePlace, "IMG_0020"))
                #expect(expected.count == 7, "six towns on five continents and the Live Photo; not 0,0, 95,200 nor mid-Atlantic: \(expected)")

                let mount = try scratch.mount()
                let complete = eventually(timeout: 60) { (try? Self.placed(mount.bytes))?.count == expected.count }
                #expect(complete, "places/ after 60 s: \(String(describing: try? Self.placed(mount.bytes)))")
                #expect(try Self.placed(mount.bytes) == expected.sorted())
                #expect(try ViewsMountTests.folders(mount.bytes / "places", depth: 1) == Set(expected.map { String($0.prefix { $0 != "/" }) }).sorted())

                // Each member's position attribute is what exiftool reads (to the 6 decimals shown).
                for (name, read) in positions {
                    let folder = mount.groups / "World" / name
                    let shown = try? RawFiles.extendedAttribute("user.assetfs.location", of: folder).get()
                    let fields = shown.map { String(decoding: $0, as: UTF8.self).split(separator: ",").compactMap { Double($0) } } ?? []
                    if read.latitude == 0 && read.longitude == 0 || abs(read.latitude) > 90 { continue }
                    #expect(fields.count == 2 && abs(fields[0] - read.latitude) < 1e-6 && abs(fields[1] - read.longitude) < 1e-6,
                            "\(name): shown \(String(describing: shown.map { String(decoding: $0, as: UTF8.self) })), exiftool \(read)")
                }
                let live = try RawFiles.extendedAttribute("user.assetfs.location", of: mount.bytes / "places" / Self.path(of: livePlace, "IMG_0020")).get()
                let liveFields = String(decoding: live, as: UTF8.self).split(separator: ",").compactMap { Double($0) }
                #expect(liveFields.count == 2 && abs(liveFields[0] - movie.latitude) < 1e-6 && abs(liveFields[1] - movie.longitude) < 1e-6,
                        "the still shows its movie's position: \(String(decoding: live, as: UTF8.self)), exiftool \(movie)")
                #expect(statErrno(mount.bytes / "places" / Self.path(of: livePlace, "IMG_0020") / "motion.mov") == 0, "a member is the whole Live Photo")
                let inView = try RawFiles.status(mount.bytes / "places" / expected[0] / "original.jpg").get()
                let inGroups = try RawFiles.status(mount.groups / "World" / "bergen" / "original.jpg").get()
                #expect(inView.st_ino == inGroups.st_ino, "the same file")
            }
        }
    }
}
