import Containers
import Foundation
import Posix
import TestFixtures
import Testing
import PhotoSource
@testable import PhotoProperties

/// The XMP packet's date, for photos whose EXIF has none (iOS screenshots, exports): found in
/// each format's own place, parsed as XMP writes ISO 8601, and checked against exiftool.
@Suite struct XMPPacketTests {
    func xmp(_ text: String) -> String? { TakenDate.xmp(Array(text.utf8)[...])?.iso8601 }

    @Test func isoDatesAsXMPWritesThem() {
        #expect(xmp("2021-03-04T10:11:12.345+01:00") == "2021-03-04T10:11:12+01:00")
        #expect(xmp("2021-03-04T10:11:12Z") == "2021-03-04T10:11:12+00:00")
        #expect(xmp("2021-03-04T10:11:12") == "2021-03-04T10:11:12")
        #expect(xmp("2021-03-04T10:11-05:00") == "2021-03-04T10:11:00-05:00", "seconds are optional")
        #expect(xmp("2021-03-04") == "2021-03-04T00:00:00", "a date alone is its midnight")
        #expect(xmp(" 2020-02-29T23:59:60 ") == "2020-02-29T23:59:60")
        for bad in ["2021-02-29T10:00:00", "2021-13-01", "2021:03:04 10:11:12", "2021-03-04T25:00", "2021-03-04T10:11:12+5", "2021-03-04Tnoon", "", "2021"] {
            #expect(xmp(bad) == nil, "\(bad)")
        }
    }

    @Test func attributesAndElementsUnderEitherQuote() {
        func date(_ packet: String) -> String? { XMPPacket(Array(packet.utf8))?.date?.iso8601 }
        #expect(date(#"<rdf:Description xmp:CreateDate="2019-08-21T11:21:36"/>"#) == "2019-08-21T11:21:36")
        #expect(date("<rdf:Description\n  photoshop:DateCreated='2019-08-21T11:21:36+02:00'/>") == "2019-08-21T11:21:36+02:00")
        #expect(date("<x><exif:DateTimeOriginal>2010-12-12T12:41:35.00+01:00</exif:DateTimeOriginal></x>") == "2010-12-12T12:41:35+01:00")
        // exif:DateTimeOriginal first, then photoshop:DateCreated, then xmp:CreateDate, whatever their order in the packet.
        #expect(date(#"<d xmp:CreateDate="2001-01-01" photoshop:DateCreated="2002-02-02" exif:DateTimeOriginal="2003-03-03"/>"#) == "2003-03-03T00:00:00")
        #expect(date(#"<d xmp:CreateDate="2001-01-01" photoshop:DateCreated="not a date"/>"#) == "2001-01-01T00:00:00", "an unusable one is passed over")
        #expect(date(#"<d myxmp:CreateDate="2001-01-01" xmp:CreateDateX="2002-02-02"/>"#) == nil, "only whole names")
        #expect(date(#"<d xmp:CreateDate="2001-01-01"#) == nil, "unterminated")
        // The prefix the packet declares for a namespace, not just the usual one.
        #expect(date(#"<d xmlns:xap="http://ns.adobe.com/xap/1.0/"><xap:CreateDate>2011-03-12T15:36:11.00+01:00</xap:CreateDate></d>"#)
                == "2011-03-12T15:36:11+01:00")
        #expect(date(#"<d xmlns:e = 'http://ns.adobe.com/exif/1.0/' e:DateTimeOriginal="2012-01-02T03:04:05"/>"#) == "2012-01-02T03:04:05")
    }

    /// Every fixture whose XMP exiftool reads a date from: ours from the same packet is the same
    /// (to the second; a date alone is compared as a date).
    @Test func fixturesXMPDatesAreExiftools() throws {
        let files = ["cameras/Canon_EOS_7D.jpg", "cameras/Nikon_D5000.jpg", "cameras/Issue_308_bogus_make.jpg", "formats/Nikon_D1X_AdobeRGB.jpg",
                     "formats/iPhone11Pro_portrait_noirot.heic", "formats/Nikon_D5300_small.heic", "formats/iPhone11ProMax_cropped.heic",
                     "formats/iPhone_XR_irot.heic", "raw/Nikon_Z9_jxl.dng", "malformed/truncated_exif_thumb_progressive.jpg"]
        for name in files {
            let path = Fixtures.path(name)
            let theirs = try #require(try exiftoolXMPDate(path), "exiftool reads an XMP date in \(name)")
            let packet = try embeddedXMP(path)
            let ours = try #require(packet.flatMap(XMPPacket.init)?.date, "\(name): no XMP date read from \(packet?.count ?? -1) bytes of XMP")
            #expect(ours.iso8601.hasPrefix(theirs), "\(name): ours \(ours.iso8601), exiftool \(theirs)")
        }
    }

    /// A photo with an XMP date and no EXIF date in each format (written with exiftool; WebP,
    /// which exiftool cannot write, by adding an `XMP ` chunk) gets that date, and says so.
    @Test func anXMPDateStandsInForAMissingEXIFDate() throws {
        let scratch = try Scratch()
        let date = "2021:03:04 23:11:12.345-05:00", expected = "2021-03-04T23:11:12-05:00"
        for name in ["orientation/Landscape_1.jpg", "formats/basi6a08.png", "formats/rgb16_deflate.tiff", "formats/cheers_1440x960.heic"] {
            let copy = scratch.path + "/" + URL(fileURLWithPath: name).lastPathComponent
            let written = try run(["exiftool", "-q", "-o", copy, "-XMP-photoshop:DateCreated=\(date)", Fixtures.path(name)])
            try #require(written.status == 0, "exiftool: \(written.output)")
            let properties = try read(copy)
            #expect(properties.date.iso8601 == expected && properties.date.source == .xmp, "\(name): \(properties.date)")
        }
        var webp = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Fixtures.path("formats/alpha_lossy.webp"))))
        var packet = Array(#"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF><rdf:Description xmp:CreateDate="2021-03-04T23:11:12.345-05:00"/></rdf:RDF></x:xmpmeta>"#.utf8)
        if packet.count % 2 == 1 { packet.append(0x20) }
        webp += Array("XMP ".utf8) + ByteOrder.littleEndian.bytes(of: packet.count, count: 4) + packet
        webp.replaceSubrange(4..<8, with: ByteOrder.littleEndian.bytes(of: webp.count - 8, count: 4))
        let copy = scratch.path + "/xmp.webp"
        try Data(webp).write(to: URL(fileURLWithPath: copy))
        let properties = try read(copy)
        #expect(properties.date.iso8601 == expected && properties.date.source == .xmp, "webp: \(properties.date)")
    }

    /// The camera from `tiff:Make` and `tiff:Model` where EXIF has none (a scanner's PNG), joined as
    /// EXIF's are, entities decoded; EXIF's own comes first.
    @Test func aCameraFromXMPWhereEXIFHasNone() throws {
        #expect(try read(Fixtures.path("formats/gray8_iCCP_scan.png")).camera.map { String(decoding: $0, as: UTF8.self) } == "Canon MG3500 series",
                "exiftool: Make Canon, Model MG3500 series, both in XMP only")
        func camera(_ packet: String) -> String? { XMPPacket(Array(packet.utf8))?.camera.map { String(decoding: $0, as: UTF8.self) } }
        #expect(camera(#"<d xmlns:t="http://ns.adobe.com/tiff/1.0/" t:Make="A &amp; B" t:Model=" A &amp; B Scan 9 "/>"#) == "A & B Scan 9")
        #expect(camera("<d><tiff:Model>X100</tiff:Model></d>") == "X100")
        #expect(camera("<d><tiff:Make>  </tiff:Make></d>") == nil)
        // Canon_EOS_7D has Make and Model in EXIF and XMP alike; EXIF's is kept.
        #expect(try read(Fixtures.path("cameras/Canon_EOS_7D.jpg")).camera.map { String(decoding: $0, as: UTF8.self) } == "Canon EOS 7D")
    }

    @Test func exifStillComesFirst() throws {
        // Issue_308: EXIF DateTimeOriginal 2017-11-27, XMP CreateDate 2017-06-27.
        let properties = try read(Fixtures.path("cameras/Issue_308_bogus_make.jpg"))
        #expect(properties.date.source == .exifOriginal && properties.date.month == 11)
    }

    // MARK: helpers

    func read(_ path: String) throws -> PhotoProperties {
        let file = try OwnedFileDescriptor.openReadOnly(FilePath(path))
        let format = SourceFormat.sniff((try? file.read(upTo: SourceFormat.headLength, at: 0)) ?? [], fileName: FilePath(path).lastComponent)
        return PhotoProperties.read(from: file.descriptor, modificationNanoseconds: 1_700_000_000_000_000_000, format: format)
    }

    func embeddedXMP(_ path: String) throws -> [UInt8]? {
        let file = try OwnedFileDescriptor.openReadOnly(FilePath(path))
        let format = try #require(SourceFormat.sniff((try? file.read(upTo: SourceFormat.headLength, at: 0)) ?? [], fileName: FilePath(path).lastComponent))
        return EmbeddedMetadata.read(file.descriptor, format).xmp
    }

    /// exiftool's first of XMP-exif:DateTimeOriginal, XMP-photoshop:DateCreated, XMP-xmp:CreateDate,
    /// turned into ISO 8601 as far as it goes ("2010:12:12 12:41:35.00+01:00" → "2010-12-12T12:41:35";
    /// the offset, when there is one, is checked by the caller's prefix too).
    func exiftoolXMPDate(_ path: String) throws -> String? {
        let result = try run(["exiftool", "-j", "-XMP-exif:DateTimeOriginal", "-XMP-photoshop:DateCreated", "-XMP-xmp:CreateDate", path])
        guard result.status == 0, let json = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String: Any]],
              let tags = json.first else { return nil }
        guard let value = ["DateTimeOriginal", "DateCreated", "CreateDate"].lazy.compactMap({ tags[$0] as? String }).first else { return nil }
        var text = Array(value)
        for index in [4, 7] where index < text.count { text[index] = "-" }
        if text.count > 10 { text[10] = "T" }
        var iso = String(text)
        if let dot = iso.firstIndex(of: ".") {  // fraction of a second: ours drops it
            let after = iso[iso.index(after: dot)...].drop { $0.isNumber }
            iso = String(iso[..<dot]) + after
        }
        return iso
    }

    func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    final class Scratch {
        let path: String
        init() throws {
            var template = Array("/tmp/assetfs-xmp.XXXXXX".utf8CString)
            path = String(cString: try #require(mkdtemp(&template)))
        }
        deinit { try? FileManager.default.removeItem(atPath: path) }
    }
}
