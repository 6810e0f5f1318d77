import MountModel
import Glibc
import PhotoProperties
import Posix
import TestFixtures
import Testing
@testable import AssetFS
import Catalog
import PhotoSource

/// Properties and the timeline through the filesystem (the mount test checks them against exiftool).
@Suite struct PropertiesTests {
    func attribute(_ fs: AssetFileSystem, _ inode: UInt64, _ name: String) -> String? {
        (try? fs.extendedAttribute(inode, name: Array("user.assetfs.\(name)".utf8), as: .ofThisProcess).get()).map { String(decoding: $0, as: UTF8.self) }
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
        #expect(sent.contains(.inode(Node.viewTop(.dates).inode)))
        #expect(fs.readPendingProperties() == 0)  // nothing is read twice

        #expect(try names(fs, "dates/2015") == ["2015-02-09"])
        #expect(try names(fs, "dates/2015/2015-02-09") == ["hdr"], "B's copy of A's hdr.jpg is one asset with it")
        let dated = try fs.lookupPath("dates/2015/2015-02-09/hdr/thumbnail.jpg").get()
        let a = try fs.lookupPath("groups/A/hdr/thumbnail.jpg").get()
        #expect(dated == a && dated.linkCount == 3)
        #expect(try fs.lookupPath("groups/B/plain/original.jpg").get().linkCount == 2)
        let day = try fs.lookupPath("dates/2015/2015-02-09").get()
        #expect(day.isDirectory && day.linkCount == 3)

        let hdr = try fs.lookupPath("groups/A/hdr").get().inode
        #expect(attribute(fs, hdr, "date") == "2015-02-09T22:47:44")
        #expect(attribute(fs, hdr, "date_source") == "exif-original")
        #expect(attribute(fs, hdr, "camera") == "Canon PowerShot SX60 HS")
        #expect(attribute(fs, hdr, "width") == "1536" && attribute(fs, hdr, "height") == "2048")  // stored 2048x1536, orientation 6
        #expect(attribute(fs, hdr, "type") == "image/jpeg")
        #expect(attribute(fs, hdr, "location") == nil)
        #expect(fs.extendedAttributeNames(hdr, as: .ofThisProcess).map { String(decoding: $0, as: UTF8.self) }.sorted()
                == ["user.assetfs.camera", "user.assetfs.date", "user.assetfs.date_source", "user.assetfs.duplicates", "user.assetfs.height",
                    "user.assetfs.id", "user.assetfs.source", "user.assetfs.type", "user.assetfs.width"])
        #expect(attribute(fs, hdr, "duplicates") == "B/hdr.jpg")  // the same file in B
        let copy = try fs.lookupPath("groups/B/hdr").get().inode
        #expect(attribute(fs, hdr, "id") != nil && attribute(fs, hdr, "id") == attribute(fs, copy, "id"))
        let htc = try fs.lookupPath("groups/A/htc").get().inode
        #expect(attribute(fs, htc, "location") == "45.500667,9.110333")
        // The folder under dates/ has the same attributes.
        let datedFolder = try fs.lookupPath("dates/2015/2015-02-09/hdr").get().inode
        #expect(datedFolder != hdr && attribute(fs, datedFolder, "date") == "2015-02-09T22:47:44")
        #expect(fs.request { fs.parent(of: datedFolder, in: $0) } == .success(day.inode))

        // No EXIF date: the file's mtime, in local time with its offset.
        let plain = try fs.lookupPath("groups/B/plain").get().inode
        #expect(attribute(fs, plain, "date_source") == "mtime")
        let mtime = try FileStatus(path: fixture.source.appending(FilePath("B/plain.jpg"))).modificationNanoseconds
        #expect(attribute(fs, plain, "date") == TakenDate.modificationTime(mtime).iso8601)
        #expect(attribute(fs, plain, "width") == "1800" && attribute(fs, plain, "height") == "1200")

        let json = String(decoding: try fs.extendedAttribute(1, name: MountLayout.statsAttribute, as: .ofThisProcess).get(), as: UTF8.self)
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
        // The photo leaves, its day and its year with it.
        #expect(changes.contains(.entry(parent: Node.viewTop(.dates).inode, name: Array("2011".utf8))))
        #expect(try names(fs, "dates").isEmpty)
        var sent: [Invalidation] = []
        fs.readPendingProperties(invalidate: { sent += $0 })
        #expect(sent.contains(.entry(parent: Node.viewTop(.dates).inode, name: Array("2015".utf8))))
        #expect(sent.contains(.entry(parent: try fs.lookupPath("dates/2015/2015-02-09").get().inode, name: Array("one".utf8))))
        #expect(try names(fs, "dates") == ["2015"])
        #expect(fs.lookupPath("dates/2011/2011-03-12/one") == .failure(.notFound))
        #expect(try fs.lookupPath("dates/2015/2015-02-09/one/original.jpg").get() == (try fs.lookupPath("groups/A/one/original.jpg").get()))
    }

    /// Reads a fixture's properties as the file system does (its format sniffed from its head).
    static func read(_ path: FilePath, modificationNanoseconds: Int64 = 1_700_000_000_000_000_000) throws -> PhotoProperties {
        let file = try OwnedFileDescriptor.openReadOnly(path)
        let head = (try? file.read(upTo: SourceFormat.headLength, at: 0)) ?? []
        let format = SourceFormat.sniff(head, fileName: path.lastComponent)
        return PhotoProperties.read(from: file.descriptor, modificationNanoseconds: modificationNanoseconds, format: format)
    }

    /// Every sample, broken ones included: reading never fails and always gives a date.
    @Test func everySampleGivesADateAndNeverFails() throws {
        for folder in ["cameras", "orientation", "malformed", "formats", "raw"] {
            for name in try Directory.entries(of: FilePath(Fixtures.path(folder))).map(\.name) {
                let path = FilePath(Fixtures.path(folder)).appending(name)
                let properties = try Self.read(path)
                #expect(properties.date.year >= 1, "\(path)")
                if properties.mediaType == nil { #expect(properties.width == nil, "\(path)") }
            }
        }
    }

    /// Every sample of formats/ and raw/ cut short at a few lengths (headers, IFDs and chunks
    /// pointing past the end): each still reads, with its mtime when nothing else is left.
    @Test func truncatedSamplesNeverFail() throws {
        let fixture = Fixture([:])
        _ = system("mkdir -p '\(fixture.source)'")
        for folder in ["formats", "raw"] {
            for name in try Directory.entries(of: FilePath(Fixtures.path(folder))).map(\.name) {
                let whole = try OwnedFileDescriptor.openReadOnly(FilePath(Fixtures.path(folder)).appending(name))
                let bytes = try whole.read(upTo: 1 << 22, at: 0)
                try whole.close()
                for length in [12, 30, 200, 4000, bytes.count / 2, bytes.count - 1] where length > 0 && length < bytes.count {
                    let path = fixture.source.appending(name)
                    let cut = try OwnedFileDescriptor.create(path)
                    try cut.writeAll(bytes[..<length])
                    try cut.close()
                    let properties = try Self.read(path)
                    #expect(properties.date.year >= 1, "\(name) cut at \(length)")
                    if let width = properties.width, let height = properties.height { #expect(width > 0 && height > 0, "\(name) cut at \(length)") }
                }
            }
        }
    }

    /// Every sample of formats/ and raw/ with bytes overwritten at random (a fixed seed): sizes,
    /// offsets, counts and box lengths turn hostile. Each still reads, and quickly.
    @Test func corruptedSamplesNeverFail() throws {
        let fixture = Fixture([:])
        _ = system("mkdir -p '\(fixture.source)'")
        var random: UInt64 = 0x2545_F491_4F6C_DD1D
        func next(_ bound: Int) -> Int {
            random = random &* 6364136223846793005 &+ 1442695040888963407
            return Int((random >> 33) % UInt64(bound))
        }
        for folder in ["formats", "raw"] {
            for name in try Directory.entries(of: FilePath(Fixtures.path(folder))).map(\.name) {
                let whole = try OwnedFileDescriptor.openReadOnly(FilePath(Fixtures.path(folder)).appending(name))
                let original = try whole.read(upTo: 1 << 22, at: 0)
                try whole.close()
                for _ in 0..<40 {
                    var bytes = original
                    // Mostly where headers, IFDs and boxes are; now and then anywhere.
                    for _ in 0..<(1 + next(8)) {
                        let at = next(4) == 0 ? next(bytes.count) : next(min(bytes.count, 8192))
                        bytes[at] = [0x00, 0xFF, 0x7F, 0x80, UInt8(next(256))][next(5)]
                    }
                    let path = fixture.source.appending(name)
                    let copy = try OwnedFileDescriptor.create(path)
                    try copy.writeAll(bytes)
                    try copy.close()
                    let properties = try Self.read(path)
                    #expect(properties.date.year >= 1, "\(name)")
                }
            }
        }
    }

    /// What exiftool 12.57 reads from each sample of formats/ and raw/ that has EXIF (date with
    /// offset, Make and Model, GPS to 6 decimals), and the upright size expectations.csv gives.
    static let exiftoolSays: [(file: String, date: String?, camera: String?, location: String?, size: String?)] = [
        ("formats/Canon_70D_8bit.avif", "2015-10-11T14:41:44", "Canon EOS 70D", nil, "5472x3648"),
        ("formats/Nikon_D5300_small.heic", "2015-07-16T15:38:54", "NIKON CORPORATION NIKON D5300", "51.178281,-1.826639", "300x200"),
        ("formats/Nokia_8.3_stale_irot.heif", nil, nil, "40.788685,-4.005141", "3456x4608"),
        ("formats/Samsung_A32_thumb.heic", "2023-12-12T18:39:16+01:00", "samsung SM-A326B", "41.726061,1.826116", "4000x3000"),
        ("formats/Samsung_S22_irot_motion.heic", "2024-01-12T21:38:53-08:00", "samsung SM-S906U", nil, "3000x4000"),
        ("formats/iPhone11ProMax_cropped.heic", "2021-04-11T15:47:53-05:00", "Apple iPhone 11 Pro Max", "39.051344,-94.288772", "2566x3313"),
        ("formats/iPhone11Pro_portrait_noirot.heic", "2020-05-04T18:39:11-04:00", "Apple iPhone 11 Pro", nil, "3024x4032"),
        ("formats/iPhone12Pro_irot_gainmap.heic", "2023-10-22T09:39:48+02:00", "Apple iPhone 12 Pro", "41.843403,3.066228", "3024x4032"),
        ("formats/iPhone7_P3_thumb.heic", "2019-03-21T11:04:22", "Apple iPhone 7", "41.220300,-96.071625", "4032x3024"),
        ("formats/iPhone_XR_irot.heic", "2019-08-21T11:21:36", "Apple iPhone XR", "38.699539,-9.207747", "3024x4032"),
        ("formats/kimono_rotate90.avif", nil, nil, nil, "722x1024"),
        ("formats/grid_2x2_paintnet.avif", nil, nil, nil, "800x600"),
        ("formats/hdr_pq_10bit_p3.avif", nil, nil, nil, "3681x5594"),
        ("formats/cheers_1440x960.heic", nil, nil, nil, "1440x960"),
        // Files libheif refuses whose `meta` box is sound: a legal meta of size 0, a damaged iloc.
        ("formats/meta_size0.avif", nil, nil, nil, "33x11"),
        ("formats/heif_thumb_no_data.heif", nil, nil, nil, "1440x960"),
        ("formats/iPhoneX_exif_orient6.webp", "2018-08-27T12:20:23", "Apple iPhone X", "37.392678,-122.040969", "240x320"),
        ("formats/alpha_lossy.webp", nil, nil, nil, "386x395"),
        ("formats/animation_lossy.webp", nil, nil, nil, "320x240"),
        ("formats/DisplayP3_iCCP_eXIf.png", nil, nil, nil, "640x513"),
        ("formats/sampleWithExifData.png", nil, nil, nil, "256x256"),
        // Its Make and Model are XMP's (tiff:Make in an iTXt chunk), not EXIF.
        ("formats/gray8_iCCP_scan.png", nil, "Canon MG3500 series", nil, "393x241"),  // its camera is in XMP only
        ("formats/Epson_V800_scan.tiff", nil, "Epson PerfectionV800", nil, "425x640"),
        ("formats/g4_orientation_6.tif", nil, nil, nil, "590x88"),
        ("formats/hopper.gif", nil, nil, nil, "128x128"),
        ("raw/Canon_R6_pruned.cr3", "2021-05-12T12:21:21+02:00", "Canon EOS R6", nil, "3408x2272"),
        ("raw/Fujifilm_S5Pro_stripped.raf", "2007-05-22T13:58:30", "FUJIFILM FinePix S5Pro", nil, "4256x1424"),
        ("raw/Nikon_D70_stripped.nef", "2004-06-09T16:02:35", "NIKON CORPORATION NIKON D70", nil, "3040x2014"),
        ("raw/Nikon_Z9_jxl.dng", "2025-08-10T19:02:53+03:00", "NIKON CORPORATION NIKON Z 9", nil, "5392x3592"),
        ("raw/Panasonic_LX3_stripped.rw2", "2008-08-06T15:21:56", "Panasonic DMC-LX3", nil, "3648x2736"),
        ("raw/Sony_A7III_truncated.arw", "2024-09-14T13:54:44+02:00", "SONY ILCE-7M3", nil, nil),
        ("raw/iPhone12Pro_ProRAW_truncated.dng", "2020-12-29T14:24:45-05:00", "Apple iPhone 12 Pro", "34.059608,-84.681725", "3024x4032"),
    ]

    /// HEIF's Exif item, PNG's eXIf, WebP's EXIF chunk, TIFF's and RAW's IFDs (far into the file:
    /// the Epson scan's IFD0 at 816074, the Z 9 DNG's EXIF IFD at 203296), CR3's CMT boxes and
    /// RAF's embedded JPEG read as exiftool reads them.
    @Test func everyFormatsEXIFAndSizeAreRead() throws {
        let mtime: Int64 = 1_700_000_000_000_000_000
        for expected in Self.exiftoolSays {
            let properties = try Self.read(FilePath(Fixtures.path(expected.file)), modificationNanoseconds: mtime)
            #expect(properties.date.iso8601 == expected.date ?? TakenDate.modificationTime(mtime).iso8601, "\(expected.file)")
            #expect(properties.date.source == (expected.date == nil ? .modificationTime : .exifOriginal), "\(expected.file)")
            #expect(properties.camera.map { String(decoding: $0, as: UTF8.self) } == expected.camera, "\(expected.file)")
            #expect(properties.location?.text == expected.location, "\(expected.file)")
            #expect(properties.width.flatMap { width in properties.height.map { "\(width)x\($0)" } } == expected.size, "\(expected.file)")
        }
    }

    /// A catalog of the previous version holds mtime-only properties for photos other than JPEGs:
    /// opened by this version, they are read again and get their EXIF date, camera and size.
    @Test func propertiesOfAnOlderReaderAreReadAgain() throws {
        let fixture = Fixture(["A/car.heic": "formats/iPhone12Pro_irot_gainmap.heic", "A/nef.nef": "raw/Nikon_D70_stripped.nef"])
        do {
            let fs = try fixture.fileSystem()
            // What the previous reader stored: type and mtime only, and no reader version.
            try fs.catalog.readPropertiesAgain(unlessReadBy: 1)
            let rows = fs.catalog.read { $0.undatedPhotos(after: 0, limit: 10) }
            #expect(rows.count == 2)
            try fs.catalog.record(rows.map { row in
                (row, AssetFileSystem.stored(.unreadable(modificationNanoseconds: row.photo.identity.modificationNanoseconds,
                                                          mediaType: row.photo.format.mimeType)))
            })
            #expect(fs.readPendingProperties() == 0)
            #expect(attribute(fs, try fs.lookupPath("groups/A/car").get().inode, "date_source") == "mtime")
        }
        let fs = try fixture.fileSystem()
        let car = try fs.lookupPath("groups/A/car").get().inode
        #expect(attribute(fs, car, "date_source") == "mtime", "shown as stored until read again")
        #expect(fs.readPendingProperties() == 2)
        #expect(attribute(fs, car, "date") == "2023-10-22T09:39:48+02:00")
        #expect(attribute(fs, car, "camera") == "Apple iPhone 12 Pro")
        #expect(attribute(fs, car, "width") == "3024" && attribute(fs, car, "height") == "4032")
        #expect(try names(fs, "dates/2023/2023-10-22") == ["car"])
        let nef = try fs.lookupPath("groups/A/nef").get().inode
        #expect(attribute(fs, nef, "date") == "2004-06-09T16:02:35" && attribute(fs, nef, "type") == "image/x-dcraw")
        // Read by this version: a third opening reads nothing again.
        #expect(try fixture.fileSystem().readPendingProperties() == 0)
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
