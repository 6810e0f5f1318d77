import Foundation
import Glibc
import Testing

extension Mounted {
    /// Properties and the dates/ timeline against exiftool, an independent EXIF reader.
    @Suite struct PropertiesTests {
        static let exifFolders = ["cameras", "orientation", "formats", "raw"]

        /// The MIME type of a sample by its extension (every sample of raw/ is `image/x-dcraw`).
        static let mediaTypes = ["jpg": "image/jpeg", "heic": "image/heic", "heif": "image/heic", "avif": "image/avif", "png": "image/png",
                                 "webp": "image/webp", "gif": "image/gif", "tif": "image/tiff", "tiff": "image/tiff"]

        /// Every sample of cameras/, orientation/, formats/ and raw/ (every format, broken files
        /// too), plus copies edited with exiftool before mounting.
        static var library: Library {
            var albums: [Library.Album] = []
            for folder in exifFolders {
                let files = ((try? FileManager.default.contentsOfDirectory(atPath: TestData.path(folder))) ?? []).sorted()
                albums.append(Library.Album(name: Array(folder.utf8), assets: files.map { file in
                    let stem = String(file[..<(file.lastIndex(of: ".") ?? file.endIndex)]), ext = file.split(separator: ".").last.map(String.init) ?? ""
                    return Library.Asset(name: Array(stem.utf8), source: Array("\(folder)/\(file)".utf8), sample: "\(folder)/\(file)",
                                         original: ext == "jpg" ? "original.jpg" : "original.\(ext)")
                }))
            }
            albums.append(Library.Album(name: Array("Special".utf8), assets: [
                Library.Asset(name: Array("edited".utf8), source: Array("Special/edited.jpg".utf8), sample: "cameras/Canon_40D_gimp_resized.jpg"),
                Library.Asset(name: Array("gps".utf8), source: Array("Special/gps.jpg".utf8), sample: "cameras/Nikon_D5000.jpg"),
                Library.Asset(name: Array("midnight".utf8), source: Array("Special/midnight.jpg".utf8), sample: "cameras/Casio_EX-S1.jpg"),
            ]))
            return Library(sourceName: "Photos", albums: albums)
        }

        /// What exiftool says of each file under `source`, by path relative to it.
        static func exiftool(_ source: String) throws -> [String: [String: String]] {
            let output = Command.run("exiftool", ["-q", "-j", "-n", "-r", "-EXIF:DateTimeOriginal", "-EXIF:CreateDate", "-EXIF:OffsetTimeOriginal",
                                                  "-EXIF:OffsetTimeDigitized", "-EXIF:Make", "-EXIF:Model", "-Composite:GPSLatitude",
                                                  "-Composite:GPSLongitude", source])
            // Status 1: some file was not readable (formats/ holds broken samples); the others are reported.
            guard output.status <= 1, let json = try JSONSerialization.jsonObject(with: Data(output.stdout)) as? [[String: Any]] else {
                throw HarnessError("exiftool failed: \(output.err)")
            }
            var result: [String: [String: String]] = [:]
            for record in json {
                guard let file = record["SourceFile"] as? String else { continue }
                var fields: [String: String] = [:]
                for (key, value) in record where key != "SourceFile" {
                    let text = "\(value)".trimmingCharacters(in: .whitespaces)
                    if !text.isEmpty { fields[key] = text }
                }
                if let lat = record["GPSLatitude"] as? Double, let lon = record["GPSLongitude"] as? Double, lat != 0 || lon != 0 {  // 0,0: no fix
                    fields["location"] = String(format: "%.6f,%.6f", lat, lon)
                }
                result[String(file.dropFirst(source.count + 1))] = fields
            }
            // The camera in XMP, which stands in where EXIF has none (a separate run: its tag
            // names are EXIF's).
            let xmp = Command.run("exiftool", ["-q", "-j", "-r", "-XMP-tiff:Make", "-XMP-tiff:Model", source])
            guard xmp.status <= 1, let records = try JSONSerialization.jsonObject(with: Data(xmp.stdout)) as? [[String: Any]] else {
                throw HarnessError("exiftool failed: \(xmp.err)")
            }
            for record in records {
                guard let file = record["SourceFile"] as? String else { continue }
                let key = String(file.dropFirst(source.count + 1))
                for (tag, name) in [("Make", "XMPMake"), ("Model", "XMPModel")] {
                    if let value = record[tag].map({ "\($0)".trimmingCharacters(in: .whitespaces) }), !value.isEmpty { result[key, default: [:]][name] = value }
                }
            }
            return result
        }

        /// An EXIF date as ISO 8601 if it is a real one ("0000:00:00 00:00:00" is not).
        static func iso(_ exif: String?, offset: String?) -> String? {
            guard let exif, exif.range(of: #"^\d{4}:\d\d:\d\d \d\d:\d\d:\d\d$"#, options: .regularExpression) != nil,
                  !exif.hasPrefix("0000"), !exif.dropFirst(5).hasPrefix("00") else { return nil }
            let characters = Array(exif)
            var text = String(characters[0..<4]) + "-" + String(characters[5..<7]) + "-" + String(characters[8..<10]) + "T" + String(characters[11...])
            if let offset, offset.range(of: #"^[+-]\d\d:\d\d$"#, options: .regularExpression) != nil { text += offset }
            return text
        }

        struct Expected {
            var date: String
            var source: String
            var camera: String?
            var location: String?
            var type: String?
            /// "WxH" from expectations.csv, when it gives one.
            var size: String?
            /// Whether the size must be known: the sample decodes (a broken one may still have a
            /// readable header, and then its size is the CSV's).
            var sizeIsKnown: Bool
        }

        static func expected(_ exif: [String: String], sample: String, file: String) throws -> Expected {
            var date: String, source: String
            if let original = iso(exif["DateTimeOriginal"], offset: exif["OffsetTimeOriginal"]) {
                (date, source) = (original, "exif-original")
            } else if let digitized = iso(exif["CreateDate"], offset: exif["OffsetTimeDigitized"]) {
                (date, source) = (digitized, "exif-digitized")
            } else {
                let mtime = Command.run("stat", ["-c", "%Y", file]).out.trimmingCharacters(in: .whitespacesAndNewlines)
                date = Command.run("date", ["-d", "@" + mtime, "+%Y-%m-%dT%H:%M:%S%:z"]).out.trimmingCharacters(in: .whitespacesAndNewlines)
                source = "mtime"
            }
            var camera: String?
            let (make, model) = exif["Make"] == nil && exif["Model"] == nil ? (exif["XMPMake"], exif["XMPModel"]) : (exif["Make"], exif["Model"])
            switch (make, model) {
            case (let make?, let model?): camera = model.lowercased().hasPrefix(make.lowercased()) ? model : make + " " + model
            case (let make, let model): camera = make ?? model
            }
            let size = heifSizes[sample] ?? TestData.uprightSize(sample).map { "\($0.width)x\($0.height)" }
            let type = sample.hasPrefix("raw/") ? "image/x-dcraw" : sample.split(separator: ".").last.flatMap { mediaTypes[String($0)] }
            return Expected(date: date, source: source, camera: camera, location: exif["location"], type: type, size: size,
                            sizeIsKnown: size != nil && TestData.expectations[sample]?.decodes != "no")
        }

        /// Where assetfs (and libheif, which renders HEIFs) and the CSV disagree: this fuzzed file's
        /// damaged property associations give its primary item (49) a 512x256 `ispe`; exiftool and
        /// the CSV give the 4032x3024 of the grid. It does not decode either way.
        static let heifSizes = ["formats/iPhone_heic_truncated_fuzz.heic": "512x256"]

        /// "WxH" of an asset folder's width and height attributes, if it has them.
        func size(_ folder: [UInt8]) -> String? {
            guard let width = attribute("width", folder), let height = attribute("height", folder) else { return nil }
            return width + "x" + height
        }

        func attribute(_ name: String, _ folder: [UInt8]) -> String? {
            (try? RawFiles.extendedAttribute("user.assetfs.\(name)", of: folder).get()).map { String(decoding: $0, as: UTF8.self) }
        }

        @Test func propertiesMatchExiftoolAndTheTimelineListsEachPhotoOnceOnItsDay() throws {
            let library = Self.library
            try withScratch(library, changesSource: true) { scratch in
                func edit(_ file: String, _ arguments: [String]) {
                    let result = Command.run("exiftool", ["-q", "-overwrite_original_in_place"] + arguments + [scratch.source + "/" + file])
                    #expect(result.status == 0, "exiftool \(arguments): \(result.err)")
                }
                // 23:30 at UTC-5 is 04:30 the next day in UTC: the photo's own day is the 31st.
                edit("Special/midnight.jpg", ["-DateTimeOriginal=2021:12:31 23:30:00", "-OffsetTimeOriginal=-05:00"])
                edit("Special/gps.jpg", ["-GPSLatitude=33.8688197", "-GPSLatitudeRef=S", "-GPSLongitude=151.209291", "-GPSLongitudeRef=E"])
                let exif = try Self.exiftool(scratch.source)
                #expect(exif["Special/midnight.jpg"]?["OffsetTimeOriginal"] == "-05:00")

                let mount = try scratch.mount()
                let everyDate = eventually(timeout: 60) {
                    guard let stats = try? mount.stats() else { return false }
                    return (stats.datesExif ?? 0) + (stats.datesMtime ?? 0) == library.assetCount
                }
                #expect(everyDate, "dates not all read 60 s after mounting: \(String(describing: try? mount.stats()))")

                // The attributes of every asset folder, against exiftool and expectations.csv.
                var expectations: [[UInt8]: Expected] = [:]
                for (album, asset) in library.allAssets {
                    let folder = mount.groups / album.name / asset.name
                    let expected = try Self.expected(exif[asset.source.text] ?? [:], sample: asset.sample, file: scratch.source + "/" + asset.source.text)
                    expectations[asset.source] = expected
                    let label = asset.source.text
                    #expect(attribute("date", folder) == expected.date, "\(label)")
                    #expect(attribute("date_source", folder) == expected.source, "\(label)")
                    #expect(attribute("camera", folder) == expected.camera, "\(label)")
                    #expect(attribute("location", folder) == expected.location, "\(label)")
                    if expected.sizeIsKnown {
                        #expect(size(folder) == expected.size, "\(label)")
                    } else {
                        #expect(size(folder) == nil || size(folder) == expected.size, "\(label): \(size(folder) ?? "no size")")
                    }
                    #expect(expected.type != nil && attribute("type", folder) == expected.type, "\(label)")
                }
                #expect(expectations[Array("Special/midnight.jpg".utf8)]?.date == "2021-12-31T23:30:00-05:00")
                #expect(expectations[Array("Special/gps.jpg".utf8)]?.location == "-33.868820,151.209291")
                #expect(expectations.values.filter { $0.source == "exif-original" }.count >= 20, "most samples have an EXIF date")
                let formatsWithDates = expectations.filter { $0.value.source == "exif-original" && !$0.key.text.hasSuffix(".jpg") }
                #expect(formatsWithDates.count >= 17, "HEIC, AVIF, WebP and RAW samples dated by EXIF: \(formatsWithDates.keys.map(\.text).sorted())")
                let dump = Command.run("getfattr", ["-d", (mount.groups / "Special" / "gps").text])
                #expect(dump.out.contains("user.assetfs.location=\"-33.868820,151.209291\"") && dump.out.contains("user.assetfs.date_source="), "\(dump.out)")
                let stats = try mount.stats()
                #expect(stats.datesExif == expectations.values.filter { $0.source != "mtime" }.count, "\(stats)")
                #expect(stats.datesMtime == expectations.values.filter { $0.source == "mtime" }.count, "\(stats)")

                // dates/: each photo exactly once, on its own day, with the same files.
                let dated = try Self.datedFolders(mount)
                for (album, asset) in library.allAssets {
                    let places = dated[asset.source] ?? []
                    let day = String(try #require(expectations[asset.source]).date.prefix(10))
                    #expect(places.count == 1, "\(asset.source.text) is under dates/ \(places.count) times: \(places.map(\.text))")
                    guard let place = places.first else { continue }
                    let components = place.split(separator: 0x2F).map { Array($0).text }
                    #expect(Array(components.suffix(3).dropLast()) == [String(day.prefix(4)), day], "\(asset.source.text): \(place.text)")
                    let twin = mount.groups / album.name / asset.name / asset.original
                    #expect(try Self.inode(place / asset.original) == (try Self.inode(twin)), "\(place.text)")
                }
                #expect(statErrno(mount.bytes / "dates" / "2021" / "2021-12-31" / "midnight") == 0)
                #expect(statErrno(mount.bytes / "dates" / "2022") == ENOENT, "only the UTC time is on January 1st")
                let thumbnail = try Self.status(mount.bytes / "dates" / "2021" / "2021-12-31" / "midnight" / "thumbnail.jpg")
                let groupsThumbnail = try Self.status(mount.groups / "Special" / "midnight" / "thumbnail.jpg")
                #expect(thumbnail.st_ino == groupsThumbnail.st_ino && thumbnail.st_nlink == 3 && thumbnail.st_size == groupsThumbnail.st_size)
                #expect(try Self.status(mount.groups / "Special" / "midnight" / "original.jpg").st_nlink == 2)

                // Edited in place: the photo moves to its new day.
                let oldPlace = try #require(dated[Array("Special/edited.jpg".utf8)]?.first)
                edit("Special/edited.jpg", ["-DateTimeOriginal=2019:07:04 12:00:00"])
                let newPlace = mount.bytes / "dates" / "2019" / "2019-07-04" / "edited"
                let moved = eventually(timeout: 20) { statErrno(newPlace) == 0 && statErrno(oldPlace) == ENOENT }
                #expect(moved, "edited.jpg not moved from \(oldPlace.text) to \(newPlace.text) within 20 s")
                #expect(attribute("date", mount.groups / "Special" / "edited") == "2019-07-04T12:00:00")
                #expect(RawFiles.names(in: mount.bytes / "dates" / "2019" / "2019-07-04") == [Array("edited".utf8)])
                let after = try Self.datedFolders(mount)
                #expect(after[Array("Special/edited.jpg".utf8)] == [newPlace])

                // A remount reads nothing again: every date is there at once.
                mount.unmount()
                let second = try scratch.mount()
                let again = try second.stats()
                #expect((again.datesExif ?? 0) + (again.datesMtime ?? 0) == library.assetCount, "\(again)")
                #expect(try Self.datedFolders(second)[Array("Special/edited.jpg".utf8)] == [second.bytes / "dates" / "2019" / "2019-07-04" / "edited"])
            }
        }

        /// dates/<YYYY>/<day>/<asset> folders by the source file they show (`user.assetfs.source`).
        static func datedFolders(_ mount: Mount) throws -> [[UInt8]: [[UInt8]]] {
            let find = Command.run("find", [mount.point + "/dates", "-mindepth", "3", "-maxdepth", "3", "-type", "d", "-print0"])
            guard find.status == 0 else { throw HarnessError("find: \(find.err)") }
            var result: [[UInt8]: [[UInt8]]] = [:]
            for folder in find.nulFields {
                let source = try RawFiles.extendedAttribute("user.assetfs.source", of: folder).get()
                result[source, default: []].append(folder)
            }
            return result
        }

        static func status(_ path: [UInt8]) throws -> stat {
            try RawFiles.status(path).get()
        }

        static func inode(_ path: [UInt8]) throws -> UInt { try status(path).st_ino }
    }
}
