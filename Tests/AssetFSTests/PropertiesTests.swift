import Glibc
import PhotoProperties
import Posix
import TestFixtures
import Testing
@testable import AssetFS
import Catalog

/// Properties and the timeline through the filesystem (the mount test checks them against exiftool).
@Suite struct PropertiesTests {
    func attribute(_ fs: AssetFileSystem, _ inode: UInt64, _ name: String) -> String? {
        (try? fs.extendedAttribute(inode, name: Array("user.assetfs.\(name)".utf8)).get()).map { String(decoding: $0, as: UTF8.self) }
    }

    func names(_ fs: AssetFileSystem, _ path: String) throws -> [String] {
        try fs.list(try fs.lookupPath(path).get().inode).get().map { String(decoding: $0.name, as: UTF8.self) }
    }

    @Test func backgroundReadingFillsTheTimelineAndTheAttributes() throws {
        let fixture = Fixture(["A/hdr.jpg": "cameras/canon_hdr_NO.jpg", "A/htc.jpg": "cameras/HTC_Desire.jpg",
                               "B/hdr.jpg": "cameras/canon_hdr_NO.jpg", "B/plain.jpg": "orientation/Landscape_6.jpg"])
        let fs = try fixture.fileSystem()
        #expect(try names(fs, "dates").isEmpty)
        var sent: [Invalidation] = []
        #expect(fs.readPendingProperties(pageSize: 3, invalidate: { sent += $0 }) == 4)
        #expect(sent.contains(.inode(Node.dates.inode)))
        #expect(fs.readPendingProperties() == 0)  // nothing is read twice

        #expect(try names(fs, "dates/2015") == ["2015-02-09"])
        #expect(try names(fs, "dates/2015/2015-02-09") == ["hdr", "hdr (2)"])
        let dated = try fs.lookupPath("dates/2015/2015-02-09/hdr (2)/thumbnail.jpg").get()
        let b = try fs.lookupPath("groups/B/hdr/thumbnail.jpg").get()
        #expect(dated == b && dated.linkCount == 3)
        #expect(try fs.lookupPath("groups/B/plain/original.jpg").get().linkCount == 2)
        let day = try fs.lookupPath("dates/2015/2015-02-09").get()
        #expect(day.isDirectory && day.linkCount == 4)

        let hdr = try fs.lookupPath("groups/A/hdr").get().inode
        #expect(attribute(fs, hdr, "date") == "2015-02-09T22:47:44")
        #expect(attribute(fs, hdr, "date_source") == "exif-original")
        #expect(attribute(fs, hdr, "camera") == "Canon PowerShot SX60 HS")
        #expect(attribute(fs, hdr, "width") == "1536" && attribute(fs, hdr, "height") == "2048")  // stored 2048x1536, orientation 6
        #expect(attribute(fs, hdr, "type") == "image/jpeg")
        #expect(attribute(fs, hdr, "location") == nil)
        #expect(fs.extendedAttributeNames(hdr).map { String(decoding: $0, as: UTF8.self) }.sorted()
                == ["user.assetfs.camera", "user.assetfs.date", "user.assetfs.date_source", "user.assetfs.height",
                    "user.assetfs.source", "user.assetfs.type", "user.assetfs.width"])
        let htc = try fs.lookupPath("groups/A/htc").get().inode
        #expect(attribute(fs, htc, "location") == "45.500667,9.110333")
        // The folder under dates/ has the same attributes.
        let datedFolder = try fs.lookupPath("dates/2015/2015-02-09/hdr").get().inode
        #expect(datedFolder != hdr && attribute(fs, datedFolder, "date") == "2015-02-09T22:47:44")
        #expect(fs.parent(of: datedFolder) == .success(day.inode))

        // No EXIF date: the file's mtime, in local time with its offset.
        let plain = try fs.lookupPath("groups/B/plain").get().inode
        #expect(attribute(fs, plain, "date_source") == "mtime")
        let mtime = try FileStatus(path: fixture.source.appending(FilePath("B/plain.jpg"))).modificationNanoseconds
        #expect(attribute(fs, plain, "date") == TakenDate.modificationTime(mtime).iso8601)
        #expect(attribute(fs, plain, "width") == "1800" && attribute(fs, plain, "height") == "1200")

        let json = String(decoding: try fs.extendedAttribute(1, name: AssetFileSystem.statsAttribute).get(), as: UTF8.self)
        #expect(json.contains("\"dates_exif\":3") && json.contains("\"dates_mtime\":1"), "\(json)")
    }

    @Test func anAttributeAskedForFirstIsReadThenAndKept() throws {
        let fixture = Fixture(["A/one.jpg": "cameras/Nikon_D5000.jpg", "A/two.jpg": "cameras/Casio_EX-S1.jpg"])
        let fs = try fixture.fileSystem()
        let one = try fs.lookupPath("groups/A/one").get().inode
        #expect(attribute(fs, one, "date") == "2011-03-12T15:36:11")
        #expect(attribute(fs, one, "camera") == "NIKON CORPORATION NIKON D5000")
        #expect(attribute(fs, one, "location") == nil, "its GPS rationals are 0/0")
        #expect(fs.readPendingProperties() == 1, "one was stored when asked for")
        #expect(try names(fs, "dates/2011/2011-03-12") == ["one"])
    }

    @Test func anEditMovesAPhotoToItsNewDay() throws {
        let fixture = Fixture(["A/one.jpg": "cameras/Nikon_D5000.jpg"])
        let fs = try fixture.fileSystem()
        fs.readPendingProperties()
        #expect(try names(fs, "dates") == ["2011"])
        fixture.copy("cameras/canon_hdr_NO.jpg", to: "A/one.jpg")
        let changes = fs.rescan()
        #expect(changes.contains(.entry(parent: Node.day(20110312).inode, name: Array("one".utf8))))
        #expect(try names(fs, "dates").isEmpty)
        var sent: [Invalidation] = []
        fs.readPendingProperties(invalidate: { sent += $0 })
        #expect(sent.contains(.entry(parent: Node.day(20150209).inode, name: Array("one".utf8))))
        #expect(try names(fs, "dates") == ["2015"])
        #expect(fs.lookupPath("dates/2011/2011-03-12/one") == .failure(.notFound))
        #expect(try fs.lookupPath("dates/2015/2015-02-09/one/original.jpg").get() == (try fs.lookupPath("groups/A/one/original.jpg").get()))
    }

    /// Every sample, broken ones included: reading never fails and always gives a date.
    @Test func everySampleGivesADateAndNeverFails() throws {
        for folder in ["cameras", "orientation", "malformed", "formats"] {
            for name in try Directory.entries(of: FilePath(Fixtures.path(folder))).map(\.name) {
                let path = FilePath(Fixtures.path(folder)).appending(name)
                let file = try FileDescriptor.openReadOnly(path)
                defer { file.close() }
                let properties = PhotoProperties.read(from: file, modificationNanoseconds: 1_700_000_000_000_000_000)
                #expect(properties.date.year >= 1, "\(path)")
                if properties.mediaType == nil { #expect(properties.width == nil, "\(path)") }
            }
        }
    }

    @Test func datesAndOffsetsParseStrictly() {
        func exif(_ text: String, _ offset: String? = nil) -> String? {
            TakenDate.exif(Array(text.utf8), offset: offset.map { Array($0.utf8) }, source: .exifOriginal)?.iso8601
        }
        #expect(exif("2021:12:31 23:30:00", "-05:00") == "2021-12-31T23:30:00-05:00")
        #expect(exif("2021:12:31 23:30:00", "+05:45") == "2021-12-31T23:30:00+05:45")
        #expect(exif("2021:12:31 23:30:00", "   :  ") == "2021-12-31T23:30:00")
        #expect(exif("0000:00:00 00:00:00") == nil && exif("    :  :     :  :  ") == nil && exif("2021:02:29 10:00:00") == nil)
        #expect(exif("2020:02:29 10:00:00") == "2020-02-29T10:00:00")
        #expect(Coordinates(latitude: -33.8688197, longitude: 151.2092955).text == "-33.868820,151.209296")
        #expect(Coordinates(latitude: -0.0000001, longitude: 0).text == "0.000000,0.000000")
    }
}
