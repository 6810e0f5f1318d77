import Foundation
import Glibc
import Testing

extension Mounted {
    /// Another real user (nobody, through `runuser`) on a mount with allow_other: a person, place,
    /// tag, day or event folder that only a photo they cannot read fills is not shown to them in
    /// any view, and cannot be reached by its name. (OtherUsersTests checks the gate without a
    /// mount, for people/ and favorites/; Tests/Reliability/security.py reads dates/ files.)
    @Suite struct OtherUserViewsTests {
        static let library = Library(sourceName: "Photos", albums: [
            Library.Album(name: Array("Open".utf8), assets: [
                Library.Asset(name: Array("open".utf8), source: Array("Open/open.jpg".utf8), sample: "orientation/Landscape_1.jpg"),
            ]),
            Library.Album(name: Array("Secret".utf8), assets: [
                // Another picture than open's: a copy of it would be in no view.
                Library.Asset(name: Array("secret".utf8), source: Array("Secret/secret.jpg".utf8), sample: "cameras/Kodak_DX4330.jpg"),
            ]),
        ])

        static func label(_ path: String, date: String, latitude: Double, longitude: Double, keywords: [String], people: [String], rating: Int) {
            let regions = people.map { "{Name=\($0),Type=Face}" }.joined(separator: ",")
            let result = Command.run("exiftool", ["-q", "-overwrite_original", "-DateTimeOriginal=\(date)", "-n",
                                                  "-GPSLatitude=\(abs(latitude))", "-GPSLatitudeRef=\(latitude < 0 ? "S" : "N")",
                                                  "-GPSLongitude=\(abs(longitude))", "-GPSLongitudeRef=\(longitude < 0 ? "W" : "E")",
                                                  "-XMP:Rating=\(rating)", "-XMP-mwg-rs:RegionInfo={RegionList=[\(regions)]}"]
                                                  + keywords.map { "-XMP-dc:Subject=\($0)" } + [path])
            #expect(result.status == 0, "\(result.err)")
        }

        /// `ls -A path` as nobody: the names, or nil when refused.
        static func namesAsNobody(_ path: String) -> [String]? {
            let listed = Command.run("runuser", ["-u", "nobody", "--", "ls", "-A", path])
            return listed.status == 0 ? listed.out.split(separator: "\n").map(String.init).sorted() : nil
        }

        /// The city of the first place under `places` (places/<country>/<region>/<city>).
        static func firstCity(_ places: [UInt8]) -> String? {
            var path = places, city: String?
            for _ in 0..<3 {
                guard let first = RawFiles.names(in: path)?.map(\.text).min() else { return nil }
                (path, city) = (path / first, first)
            }
            return city
        }

        static func statAsNobody(_ path: String) -> Bool {
            Command.run("runuser", ["-u", "nobody", "--", "stat", path]).status == 0
        }

        @Test func aFolderOnlyAnUnreadablePhotoFillsIsNotShownToAnotherUser() throws {
            try withScratch(Self.library, changesSource: true) { scratch in
                Self.label(scratch.source + "/Open/open.jpg", date: "2023:09:01 10:00:00", latitude: 60.3913, longitude: 5.3221,
                           keywords: ["Shared"], people: ["Anna"], rating: 2)
                Self.label(scratch.source + "/Secret/secret.jpg", date: "2023:10:01 10:00:00", latitude: -1.2921, longitude: 36.8219,
                           keywords: ["Shared", "Hidden"], people: ["Anna", "Carl"], rating: 5)
                // Modes set here, whatever this process's umask: the scratch folder is mkdtemp's 0700.
                #expect(system("chmod -R go+rX '\(scratch.path)' && chmod 700 '\(scratch.source)/Secret'") == 0)
                let mount = try scratch.mount(options: ["allow_other"])
                let root = mount.point
                let complete = eventually(timeout: 60) {
                    ["places/Kenya", "people/Carl", "tags/Hidden", "favorites/secret", "dates/2023/2023-10-01"].allSatisfy { statErrno(mount.bytes / $0) == 0 }
                }
                #expect(complete, "root does not see the secret photo's folders after 60 s")
                #expect(Self.namesAsNobody(root + "/groups") == ["Open"], "the gate of groups/ holds for nobody")

                let shown: [String: [String]] = [
                    "people": ["Anna"], "people/Anna": ["open"], "tags": ["Shared"], "tags/Shared": ["open"],
                    "places": ["Norway"], "favorites": [], "dates/2023": ["2023-09-01"],
                ]
                for (folder, names) in shown {
                    #expect(Self.namesAsNobody(root + "/" + folder) == names, "\(folder)/ as nobody; root sees \(RawFiles.names(in: mount.bytes / folder)?.map(\.text) ?? [])")
                }
                let events = Self.namesAsNobody(root + "/events/2023") ?? []
                #expect(events.count == 1 && events.first?.hasPrefix("2023-09-01") == true, "events/2023 as nobody: \(events)")
                for hidden in ["people/Carl", "tags/Hidden", "places/Kenya", "favorites/secret", "dates/2023/2023-10-01", "people/Anna/secret"] {
                    #expect(!Self.statAsNobody(root + "/" + hidden), "nobody reaches \(hidden)")
                    #expect(statErrno(mount.bytes / hidden) == 0, "root reaches \(hidden)")
                }
            }
        }

        /// An event named by the place of a photo they cannot read is not shown to them, though a
        /// photo of theirs joined it (names stay: the secret photo named it first).
        @Test func anEventsNameTellsNoPlaceOfAPhotoTheyCannotRead() throws {
            try withScratch(Self.library, changesSource: true) { scratch in
                Self.label(scratch.source + "/Secret/secret.jpg", date: "2023:10:01 09:00:00", latitude: -1.2921, longitude: 36.8219,
                           keywords: [], people: [], rating: 0)
                #expect(system("chmod -R go+rX '\(scratch.path)' && chmod 700 '\(scratch.source)/Secret'") == 0)
                let mount = try scratch.mount(options: ["allow_other"])
                let year = mount.bytes / "events" / "2023"
                let named = eventually(timeout: 60) { RawFiles.names(in: year)?.map(\.text) == ["2023-10-01 Nairobi"] }
                #expect(named, "root: \(RawFiles.names(in: year)?.map(\.text) ?? [])")
                let later = scratch.path + "/later.jpg"
                try RawFiles.write(try TestData.contents("cameras/Nikon_D5000.jpg"), to: Array(later.utf8))  // a picture of its own
                let dated = Command.run("exiftool", ["-q", "-overwrite_original", "-DateTimeOriginal=2023:10:01 10:00:00", later])
                #expect(dated.status == 0 && chmod(later, 0o644) == 0 && rename(later, scratch.source + "/Open/later.jpg") == 0, "\(dated.err)")
                let joined = eventually(timeout: 20) { RawFiles.names(in: year / "2023-10-01 Nairobi")?.count == 2 }
                #expect(joined, "later did not join the event: \(RawFiles.names(in: year)?.map(\.text) ?? [])")
                let shown = Self.namesAsNobody(mount.point + "/events/2023") ?? []
                #expect(!shown.contains { $0.contains("Nairobi") }, "events/2023 as nobody: \(shown)")
                #expect(!Self.statAsNobody(mount.point + "/events/2023/2023-10-01 Nairobi"), "reached by its name")
                #expect(Self.namesAsNobody(mount.point + "/groups/Open") == ["later", "open", "thumbnail.jpg"], "later is theirs in groups/")
            }
        }

        /// A Live Photo whose still they may read but whose movie they may not: the still took the
        /// movie's place and UTC offset, which neither places/, an event's name nor the still's
        /// attributes tell them.
        @Test func aLivePhotosPlaceFromAMovieTheyCannotRead() throws {
            try withScratch(Self.library, changesSource: true) { scratch in
                try RawFiles.write(try TestData.contents("video/iPhone6s_livephoto.mov"), to: scratch.sourceBytes / "Open" / "IMG_0020.MOV")
                try LivePhotoChangeTests.makeStill(at: scratch.source + "/Open/IMG_0020.HEIC")
                let stripped = Command.run("exiftool", ["-q", "-overwrite_original", "-gps:all=", scratch.source + "/Open/IMG_0020.HEIC"])
                #expect(stripped.status == 0, "\(stripped.err)")
                #expect(system("chmod -R go+rX '\(scratch.path)' && chmod 600 '\(scratch.source)/Open/IMG_0020.MOV'") == 0)
                let mount = try scratch.mount(options: ["allow_other"])
                let placed = eventually(timeout: 60) { !(RawFiles.names(in: mount.bytes / "places") ?? []).isEmpty }
                #expect(placed, "the still is not placed by its movie for root")
                let shown = Self.namesAsNobody(mount.point + "/places") ?? []
                #expect(shown.isEmpty, "places/ as nobody: \(shown)")
                #expect(Self.namesAsNobody(mount.point + "/groups/Open")?.contains("IMG_0020") == true, "the still is theirs in groups/")
                let city = try #require(Self.firstCity(mount.bytes / "places"), "root's places/ has no city")
                let years = RawFiles.names(in: mount.bytes / "events")?.map(\.text) ?? []
                let events = years.flatMap { RawFiles.names(in: mount.bytes / "events" / $0)?.map(\.text) ?? [] }
                #expect(events.contains { $0.hasSuffix(city) }, "root: the still's event is named by its movie's city: \(events)")
                let eventsAsNobody = years.flatMap { Self.namesAsNobody(mount.point + "/events/" + $0) ?? [] }
                #expect(!eventsAsNobody.contains { $0.contains(city) }, "events/ as nobody: \(eventsAsNobody)")
                let location = "user.assetfs.location"
                let asset = mount.point + "/groups/Open/IMG_0020"
                #expect((try? RawFiles.extendedAttribute(location, of: Array(asset.utf8)).get()) != nil, "root reads the lent location")
                let asNobody = Command.run("runuser", ["-u", "nobody", "--", "getfattr", "-d", "-m", "-", asset])
                #expect(asNobody.status == 0 && asNobody.out.contains("user.assetfs.date"), "nobody reads the still's attributes: \(asNobody.err)")
                #expect(!asNobody.out.contains("location"), "the still's attributes as nobody: \(asNobody.out)")
                let read = Command.run("runuser", ["-u", "nobody", "--", "getfattr", "-n", location, asset])
                #expect(read.status != 0, "nobody reads the still's \(location): \(read.out)")
                let date = ["getfattr", "--only-values", "-n", "user.assetfs.date", asset]
                #expect(Command.run(date[0], Array(date.dropFirst())).out == "2019-08-21T11:21:36+01:00", "root: the movie's offset")
                #expect(Command.run("runuser", ["-u", "nobody", "--"] + date).out == "2019-08-21T11:21:36", "nobody: the still's own date")
            }
        }

        /// Two byte-identical broken copies share one failure: the copy in an album nobody may read
        /// is rendered first, yet nobody's `user.assetfs.error` of the open copy names only it.
        @Test func aSharedFailureNamesOnlyTheCopyAnotherUserReads() throws {
            let library = Library(sourceName: "Photos", albums: ["Open", "Secret"].map { album in
                Library.Album(name: Array(album.utf8), assets: [
                    Library.Asset(name: Array("bad".utf8), source: Array("\(album)/bad.jpg".utf8), sample: "malformed/null_height.jpg"),
                ])
            })
            try withScratch(library, changesSource: true) { scratch in
                #expect(system("chmod -R go+rX '\(scratch.path)' && chmod 700 '\(scratch.source)/Secret'") == 0)
                let mount = try scratch.mount(options: ["allow_other"])
                let catalog = scratch.path + "/cache.catalog.sqlite"
                let digests = eventually(timeout: 30) { SharedRenditionsMountTests.count(catalog, "SELECT count(*) FROM properties WHERE length(rendition_digest) = 16") == 2 }
                #expect(digests, "both copies read whole in the background")
                _ = RawFiles.read(mount.groups / "Secret" / "bad" / "thumbnail.jpg")
                let open = String(decoding: mount.groups / "Open" / "bad", as: UTF8.self)
                let told = Command.run("runuser", ["-u", "nobody", "--", "getfattr", "--only-values", "-n", "user.assetfs.error", open])
                #expect(told.status == 0 && told.out.hasPrefix("Open/bad.jpg: ") && !told.out.contains("Secret"), "\(told.out) \(told.err)")
                #expect(try mount.stats().renders == 1, "one render for both")
            }
        }
    }
}
