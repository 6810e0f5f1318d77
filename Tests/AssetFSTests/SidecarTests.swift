import Foundation
import Glibc
import PhotoProperties
import Posix
import Testing
@testable import AssetFS
import PhotoSource

/// Dates and places from sidecars: Google Takeout's JSON and XMP sidecars, after the photo's own
/// EXIF and XMP and before its mtime. The JSON and XMP are written here: they are plain text.
@Suite struct SidecarTests {
    func write(_ text: String, _ path: FilePath) throws {
        let file = try OwnedFileDescriptor.create(path)
        try file.writeAll(Array(text.utf8))
    }

    func takeout(_ timestamp: Int, latitude: Double = 0, longitude: Double = 0) -> String {
        """
        {"title": "x.jpg", "photoTakenTime": {"timestamp": "\(timestamp)", "formatted": "…"},
         "geoData": {"latitude": \(latitude), "longitude": \(longitude), "altitude": 0.0}}
        """
    }

    func attribute(_ fs: AssetFileSystem, _ path: String, _ name: String) -> String? {
        guard let inode = try? fs.lookupPath(path).get().inode else { return nil }
        return (try? fs.extendedAttribute(inode, name: Array("user.assetfs.\(name)".utf8), as: .ofThisProcess).get())
            .map { String(decoding: $0, as: UTF8.self) }
    }

    /// Takeout's quirks: a name cut to 46 characters before `.json`, `(1)` moved before `.json`,
    /// `-edited` sharing its original's.
    @Test func takeoutNamesPairAsTakeoutWritesThem() {
        func candidates(_ name: String) -> [String] { SidecarNames.candidates(for: Array(name.utf8)).map { String(decoding: $0, as: UTF8.self) } }
        #expect(candidates("IMG_1234.jpg").contains("IMG_1234.jpg.supplemental-metadata.json"))
        #expect(candidates("IMG_1234.jpg").contains("IMG_1234.jpg.json"))
        #expect(candidates("IMG_1234.jpg").prefix(4) == ["IMG_1234.xmp", "IMG_1234.XMP", "IMG_1234.jpg.xmp", "IMG_1234.jpg.XMP"])
        #expect(candidates("IMG_1234(1).jpg").contains("IMG_1234.jpg(1).json"))
        #expect(candidates("IMG_1234(1).jpg").contains("IMG_1234.jpg.supplemental-metadata(1).json"))
        #expect(candidates("IMG_1234-edited.jpg").contains("IMG_1234.jpg.json"))
        let long = "PXL_20230704_184512345.NIGHT.RAW-01.MP.COVER.jpg"
        #expect(candidates(long).contains(String((long + ".supplemental-metadata").prefix(46)) + ".json"))
        #expect(candidates(long).contains(String(long.prefix(46)) + ".json"))
        #expect(SidecarNames.isSidecar(Array("a.JSON".utf8)) && SidecarNames.isSidecar(Array("IMG.CR2.xmp".utf8)) && !SidecarNames.isSidecar(Array("a.jpg".utf8)))
    }

    @Test func takeoutJSONDatesAndPlacesPhotosWithoutTheirOwnAndAChangeRedatesThem() throws {
        let fixture = Fixture(["T/IMG_0001.jpg": "malformed/grayscale.jpg", "T/IMG_0002(1).jpg": "malformed/grayscale.jpg",
                               "T/IMG_0003-edited.jpg": "malformed/grayscale.jpg", "T/own.jpg": "cameras/canon_hdr_NO.jpg"])
        let folder = fixture.source.appending(FilePath("T"))
        try write(takeout(1_561_977_245, latitude: 48.858844, longitude: 2.294351), folder.appending(FilePath("IMG_0001.jpg.supplemental-metadata.json")))
        try write(takeout(1_262_304_000), folder.appending(FilePath("IMG_0002.jpg(1).json")))
        try write(takeout(946_684_800), folder.appending(FilePath("IMG_0003.jpg.json")))
        try write(takeout(1_000_000_000), folder.appending(FilePath("own.jpg.json")))  // EXIF comes first
        let fs = try fixture.fileSystem()
        fs.readPendingProperties()
        func expected(_ seconds: Int) -> String { TakenDate.modificationTime(Int64(seconds) * 1_000_000_000).iso8601 }
        #expect(attribute(fs, "groups/T/IMG_0001", "date") == expected(1_561_977_245))
        #expect(attribute(fs, "groups/T/IMG_0001", "date_source") == "sidecar")
        #expect(attribute(fs, "groups/T/IMG_0001", "location") == "48.858844,2.294351")
        #expect(attribute(fs, "groups/T/IMG_0002(1)", "date") == expected(1_262_304_000))
        #expect(attribute(fs, "groups/T/IMG_0003-edited", "date") == expected(946_684_800))
        #expect(attribute(fs, "groups/T/own", "date_source") == "exif-original")
        #expect(fs.catalog.read { $0.dateCounts() }[.sidecar] == 3)
        // Sidecars are listed as such, not as files that are no photo.
        var reasons: [String: SkipReason] = [:]
        fs.catalog.read { $0.forEachSkipped { path, reason in reasons[path.description] = reason } }
        #expect(reasons.count == 4 && reasons.values.allSatisfy { $0 == .sidecar })

        try write(takeout(1_600_000_000), folder.appending(FilePath("IMG_0001.jpg.supplemental-metadata.json")))
        _ = fs.rescan()
        fs.readPendingProperties()
        #expect(attribute(fs, "groups/T/IMG_0001", "date") == expected(1_600_000_000))
    }

    /// exiftool reads the XMP sidecar itself: the date and place must be its.
    @Test func xmpSidecarsAgreeWithExiftool() throws {
        let fixture = Fixture(["X/IMG_1234.jpg": "malformed/grayscale.jpg", "X/DSC_0001.jpg": "orientation/Landscape_1.jpg"])
        let folder = fixture.source.appending(FilePath("X"))
        let packet = { (date: String, latitude: String, longitude: String) in
            """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
             <rdf:Description rdf:about="" xmlns:exif="http://ns.adobe.com/exif/1.0/"
              exif:DateTimeOriginal="\(date)" exif:GPSLatitude="\(latitude)" exif:GPSLongitude="\(longitude)"/>
            </rdf:RDF></x:xmpmeta>
            """
        }
        let sidecars = [("IMG_1234.xmp", packet("2019-05-04T13:14:15+02:00", "48,51.5306N", "2,17.6611E")),
                        ("DSC_0001.jpg.xmp", packet("2008-11-30T07:08:09", "33,52,4.8S", "151,12,36W"))]
        for (name, text) in sidecars { try write(text, folder.appending(FilePath(name))) }
        let fs = try fixture.fileSystem()
        fs.readPendingProperties()
        for ((name, _), asset) in zip(sidecars, ["IMG_1234", "DSC_0001"]) {
            let path = "\(folder)/\(name)"
            let tool = Process()
            tool.executableURL = URL(fileURLWithPath: "/usr/bin/exiftool")
            tool.arguments = ["-s3", "-n", "-XMP:DateTimeOriginal", "-XMP:GPSLatitude", "-XMP:GPSLongitude", path]
            let pipe = Pipe()
            tool.standardOutput = pipe
            try tool.run()
            tool.waitUntilExit()
            let lines = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(separator: "\n").map(String.init)
            try #require(lines.count == 3, "exiftool: \(lines)")
            // exiftool writes "2019:05:04 13:14:15+02:00"; ISO 8601 has dashes and a T.
            var iso = Array(lines[0])
            (iso[4], iso[7], iso[10]) = ("-", "-", "T")
            #expect(attribute(fs, "groups/X/\(asset)", "date") == String(iso),
                    "\(asset): ours \(attribute(fs, "groups/X/\(asset)", "date") ?? "none"), exiftool \(lines[0])")
            #expect(attribute(fs, "groups/X/\(asset)", "date_source") == "sidecar")
            let ours = try #require(attribute(fs, "groups/X/\(asset)", "location")).split(separator: ",").compactMap { Double($0) }
            #expect(ours.count == 2 && abs(ours[0] - Double(lines[1])!) < 1e-6 && abs(ours[1] - Double(lines[2])!) < 1e-6, "\(asset): \(ours) vs \(lines)")
        }
    }
}

/// Takeout's newer names, the `title` fallback, `.AAE` files, and dates in file names ranked
/// after sidecars and before the mtime.
@Suite struct TakeoutNameTests {
    let sidecars = SidecarTests()

    func candidates(_ name: String) -> [String] { SidecarNames.candidates(for: Array(name.utf8)).map { String(decoding: $0, as: UTF8.self) } }

    /// The 53 characters newer Takeouts write, `.supplemental-metadata` cut anywhere, cut names,
    /// `(n)` and edited copies in other languages.
    @Test func everyTakeoutFormIsACandidate() {
        let pixel = "PXL_20230615_101010123.jpg"
        #expect(candidates(pixel).contains(pixel + ".supplemental-metadata.json"))
        #expect(candidates(pixel).contains(pixel + ".supplemental-metada.json"))  // 51, cut at 46
        for cut in [".supplemental-metad", ".supplemen", ".suppl", ".s"] {
            #expect(candidates("IMG_1234.jpg").contains("IMG_1234.jpg\(cut).json"), "\(cut)")
        }
        #expect(candidates("IMG_1234(2).jpg").contains("IMG_1234.jpg.suppl(2).json"))
        #expect(candidates("IMG_1234-bearbeitet.jpg").contains("IMG_1234.jpg.supplemental-metadata.json"))
        #expect(candidates("IMG_1234-編集済み.jpg").contains("IMG_1234.jpg.json"))
        let long = "PXL_20230704_184512345.NIGHT.RAW-01.MP.COVER.jpg"
        #expect(candidates(long).contains(long + ".supplemental-metadata.json"))
        #expect(candidates(long).contains(String(long.prefix(46)) + ".json"))
        #expect(SidecarNames.isSidecar(Array("IMG_1234.AAE".utf8)) && SidecarNames.isSidecar(Array("IMG_E1234.aae".utf8)))
    }

    @Test func takeoutNamedInFullOrByTitleDatesItsPhotoAndAAEIsASidecar() throws {
        let plain = "malformed/grayscale.jpg"  // no date inside
        let fixture = Fixture(["T/PXL_20230615_101010123.jpg": plain, "T/Holiday.jpg": plain, "T/IMG_20230909_120000.jpg": plain,
                               "T/IMG-20240305-WA0002.jpg": plain, "T/IMG_0001.HEIC": "cameras/canon_hdr_NO.jpg"])
        let folder = fixture.source.appending(FilePath("T"))
        try sidecars.write(sidecars.takeout(1_561_977_245, latitude: 48.858844, longitude: 2.294351),
                           folder.appending(FilePath("PXL_20230615_101010123.jpg.supplemental-metadata.json")))
        try sidecars.write(sidecars.takeout(1_262_304_000).replacingOccurrences(of: "x.jpg", with: "Holiday.jpg"),
                           folder.appending(FilePath("a name no rule predicts.json")))
        try sidecars.write(sidecars.takeout(946_684_800), folder.appending(FilePath("IMG_20230909_120000.jpg.suppl.json")))
        try sidecars.write("<plist version=\"1.0\"><dict/></plist>", folder.appending(FilePath("IMG_0001.AAE")))
        let fs = try fixture.fileSystem()
        fs.readPendingProperties()
        func expected(_ seconds: Int) -> String { TakenDate.local(Int64(seconds), source: .sidecar).iso8601 }
        func attribute(_ asset: String, _ name: String) -> String? { sidecars.attribute(fs, "groups/T/" + asset, name) }
        // The sidecar comes before the date in the name.
        #expect(attribute("PXL_20230615_101010123", "date") == expected(1_561_977_245))
        #expect(attribute("PXL_20230615_101010123", "date_source") == "sidecar")
        #expect(attribute("PXL_20230615_101010123", "location") == "48.858844,2.294351")
        #expect(attribute("Holiday", "date") == expected(1_262_304_000))
        #expect(attribute("IMG_20230909_120000", "date") == expected(946_684_800))
        // No sidecar: the name's date, before the mtime.
        #expect(attribute("IMG-20240305-WA0002", "date") == "2024-03-05T00:00:00")
        #expect(attribute("IMG-20240305-WA0002", "date_source") == "filename")
        #expect(fs.catalog.read { $0.dateCounts() }[.sidecar] == 3 && fs.catalog.read { $0.dateCounts() }[.fileName] == 1)
        var reasons: [String: SkipReason] = [:]
        fs.catalog.read { $0.forEachSkipped { path, reason in reasons[path.description] = reason } }
        #expect(reasons["T/IMG_0001.AAE"] == .sidecar, "\(reasons)")
    }
}
