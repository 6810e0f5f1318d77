import Containers
import Foundation
import Posix
import PhotoSource
import TestFixtures
import Testing
@testable import PhotoProperties

/// Keywords, people and ratings, written with exiftool into photos of each format that keeps XMP
/// (and IPTC in JPEGs) and into sidecars, read back by us and by exiftool (`-j -struct`); the
/// deduplication rules of `Labels`; odd input.
@Suite struct LabelsTests {
    static let regions = "-XMP-mwg-rs:RegionInfo={AppliedToDimensions={W=100,H=100,Unit=pixel},RegionList=["
        + "{Area={X=0.5,Y=0.5,W=0.1,H=0.1,Unit=normalized},Name=Anna Müller,Type=Face},"
        + "{Area={X=0.2,Y=0.2,W=0.1,H=0.1,Unit=normalized},Type=Face},{Name=Rex,Type=Pet}]}"
    /// What Lightroom, digiKam and Windows write together: keywords flat and hierarchical (with
    /// digiKam's every level, people under People), MWG and Microsoft regions, ratings.
    static let labelling = ["-XMP-dc:Subject=Paris", "-XMP-dc:Subject=France", "-XMP-dc:Subject=AC/DC", "-XMP-dc:Subject=Anna Müller",
                            "-XMP-lr:HierarchicalSubject=Places|France|Paris", "-XMP-lr:HierarchicalSubject=People|Bob",
                            "-XMP-digiKam:TagsList=Places/France", "-XMP-digiKam:TagsList=Places/France/Paris",
                            "-XMP-digiKam:TagsList=People/Family/Carla", regions,
                            "-XMP-MP:RegionInfoMP={Regions=[{PersonDisplayName=Bob,Rectangle=0.1|, 0.1|, 0.2|, 0.2}]}",
                            "-XMP:Rating=4", "-XMP-microsoft:RatingPercent=25"]

    @Test(arguments: ["orientation/Landscape_1.jpg", "formats/basi6a08.png", "formats/cheers_1440x960.heic", "formats/rgb16_deflate.tiff"])
    func labelsAreWhatExiftoolReads(_ fixture: String) throws {
        let scratch = try Scratch()
        let isJPEG = fixture.hasSuffix(".jpg")
        let copy = try scratch.written(fixture, Self.labelling + (isJPEG ? ["-IPTC:Keywords=Sunset", "-IPTC:Keywords=Été"] : []))
        let ours = try read(copy)
        let theirs = try exiftool(copy)
        #expect(Set(ours.keywords) == Set([["Places", "France", "Paris"], ["AC/DC"]] + (isJPEG ? [["Sunset"], ["Été"]] : [])), "\(fixture): \(ours.keywords)")
        #expect(ours.people.count == Set(ours.people).count && Set(ours.people) == ["Anna Müller", "Bob", "Carla"], "\(fixture): \(ours.people)")
        #expect(Set(ours.people) == theirs.people, "\(fixture): exiftool's people \(theirs.people)")
        #expect(theirs.accountsFor(ours.keywords, people: ours.people), "\(fixture): \(ours.keywords), exiftool's \(theirs.keywords)")
        #expect(ours.rating == 4 && theirs.rating == 4, "xmp:Rating comes before MicrosoftPhoto:Rating")
        #expect(!ours.favorite)
    }

    /// Lightroom writes each keyword flat and its path; digiKam each level of a path; both, a
    /// person's name as a keyword. Each is one tag (or one person).
    @Test func oneTagPerKeywordHoweverManyTimesWritten() {
        let packet = """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:L="http://ns.adobe.com/lightroom/1.0/" xmlns:d="http://www.digikam.org/ns/1.0/">
             <dc:subject><rdf:Bag><rdf:li>Dog</rdf:li><rdf:li>Animals</rdf:li><rdf:li> Rock &amp; Roll </rdf:li><rdf:li>It&#39;s</rdf:li>
              <rdf:li>Zoe</rdf:li><rdf:li></rdf:li><rdf:li/></rdf:Bag></dc:subject>
             <L:hierarchicalSubject><rdf:Bag><rdf:li>Animals|Dog</rdf:li><rdf:li>Music| Rock &amp; Roll|</rdf:li><rdf:li>People|Zoe</rdf:li></rdf:Bag></L:hierarchicalSubject>
             <d:TagsList><rdf:Seq><rdf:li>Animals</rdf:li><rdf:li>Animals/Dog</rdf:li><rdf:li>People</rdf:li></rdf:Seq></d:TagsList>
            </rdf:Description></rdf:RDF></x:xmpmeta>
            """
        let (keywords, people) = labels(packet)
        #expect(keywords == [["Animals", "Dog"], ["Music", "Rock & Roll"], ["It's"]])
        #expect(people == ["Zoe"])
        let deep = (1...40).map(String.init).joined(separator: "|")
        #expect(labels("<lr:hierarchicalSubject><rdf:Bag><rdf:li>\(deep)</rdf:li></rdf:Bag></lr:hierarchicalSubject>").keywords == [(1...32).map(String.init)],
                "a hierarchy is cut at 32 levels")
    }

    /// Regions as Lightroom and Picasa write them (attributes of a Description in each item), as
    /// Windows does (an empty item of attributes), with lists of their own inside an item, under
    /// another prefix: every named face once, pets, unnamed faces and names of nested lists none.
    @Test func regionsInEveryFormToolsWriteThem() {
        let packet = """
            <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:R="http://www.metadataworkinggroup.com/schemas/regions/">
             <R:Regions rdf:parseType="Resource"><R:RegionList><rdf:Bag>
              <rdf:li><rdf:Description R:Name="Anna &amp; Co" R:Type="Face"><R:Area stArea:x="0.5"/></rdf:Description></rdf:li>
              <rdf:li rdf:parseType="Resource"><R:Type>Face</R:Type><R:Extensions><x:Seen><rdf:Bag><rdf:li>Not a name</rdf:li></rdf:Bag></x:Seen></R:Extensions>
               <R:Name>Bo</R:Name></rdf:li>
              <rdf:li R:Name="Rex" R:Type="Pet"/>
              <rdf:li R:Type="Face"/>
              <rdf:li><rdf:Description R:Name="Anna &amp; Co"/></rdf:li>
             </rdf:Bag></R:RegionList></R:Regions>
             <MP:RegionInfo rdf:parseType="Resource"><MPRI:Regions><rdf:Bag>
              <rdf:li MPReg:PersonDisplayName="Cy" MPReg:Rectangle="0.1, 0.1, 0.2, 0.2"/>
              <rdf:li rdf:parseType="Resource"><MPReg:Rectangle>0.1, 0.1, 0.2, 0.2</MPReg:Rectangle></rdf:li>
             </rdf:Bag></MPRI:Regions></MP:RegionInfo>
            </rdf:Description></rdf:RDF>
            """
        #expect(labels(packet).people == ["Anna & Co", "Bo", "Cy"])
    }

    @Test func ratingsAsWindowsAndXMPMeanThem() {
        func rating(_ xmp: String?, percent: String? = nil) -> Int? {
            let attributes = (xmp.map { #" xmp:Rating="\#($0)""# } ?? "") + (percent.map { #" MicrosoftPhoto:Rating="\#($0)""# } ?? "")
            return XMPPacket(Array("<rdf:Description\(attributes)/>".utf8))?.rating
        }
        #expect([rating("5"), rating("-1"), rating("0"), rating(" 3 "), rating("2.6")] == [5, -1, 0, 3, 3])
        #expect([rating("99"), rating("6"), rating("-2"), rating("garbage"), rating(""), rating("nan")] == [nil, nil, nil, nil, nil, nil])
        #expect(["1", "12", "13", "25", "37", "38", "50", "62", "63", "75", "87", "88", "99", "100", "0"].map { rating(nil, percent: $0) }
                == [1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5, 0])
        #expect([rating(nil, percent: "101"), rating(nil, percent: "-5"), rating(nil, percent: "x")] == [nil, nil, nil])
        #expect(rating("99", percent: "75") == 4, "an unusable xmp:Rating leaves Windows' percent")
    }

    /// A thousand named faces (exiftool moves them to a JPEG's extended XMP), names with a `/`,
    /// 300 bytes, regions without names: every name as written, each once.
    @Test func aThousandPeopleAndOddNames() throws {
        let long = String(repeating: "é", count: 150)  // 300 bytes
        let names = (1...1000).map { "Person \($0)" } + ["AC/DC Fan", long]
        let list = names.map { "{Name=\($0),Type=Face}" }.joined(separator: ",") + ",{Type=Face},{Name=,Type=Face}"
        let scratch = try Scratch()
        let copy = try scratch.written("orientation/Landscape_1.jpg", ["-XMP-mwg-rs:RegionInfo={RegionList=[\(list)]}"])
        let theirs = try exiftool(copy)
        #expect(try run(["exiftool", "-s3", "-XMP-xmpNote:HasExtendedXMP", copy]).count == 33, "exiftool wrote extended XMP")
        let ours = try read(copy)
        #expect(ours.people == names)
        #expect(theirs.people == Set(names))
    }

    /// A 10 MB packet (a JPEG's extended XMP as exiftool writes it, and a sidecar) is read whole:
    /// its keywords before and after the bulk.
    @Test func aTenMegabytePacket() throws {
        let scratch = try Scratch()
        let bulk = scratch.path + "/bulk.txt"
        try Data(String(repeating: "x", count: 10 << 20).utf8).write(to: URL(fileURLWithPath: bulk))
        let copy = try scratch.written("orientation/Landscape_1.jpg", ["-XMP-dc:Description<=\(bulk)", "-XMP-dc:Subject=Before", "-XMP-lr:HierarchicalSubject=A|B"])
        #expect(try read(copy).keywords == [["A", "B"], ["Before"]])
        let filler = "<rdf:li>" + String(repeating: "y", count: 10 << 20) + "</rdf:li>"
        let sidecar = #"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF><rdf:Description xmp:Rating="5"><dc:subject><rdf:Bag><rdf:li>First</rdf:li>"#
            + filler + "<rdf:li>Last</rdf:li></rdf:Bag></dc:subject></rdf:Description></rdf:RDF></x:xmpmeta>"
        let metadata = try #require(SidecarMetadata(Array(sidecar.utf8)))
        #expect(metadata.keywords == [["First"], ["Last"]] && metadata.rating == 5, "a name over 1 KiB is none")
        #expect(SidecarMetadata(Array(sidecar.utf8) + [UInt8](repeating: 0x20, count: XMPPacket.maxPacketBytes)) == nil, "past the bound, nothing is read")
    }

    /// An `.xmp` sidecar made by exiftool says what exiftool reads in it; a Takeout JSON's people
    /// (a NUL, a slash and all) and favorite.
    @Test func sidecarsXMPAndTakeout() throws {
        let scratch = try Scratch()
        let sidecar = scratch.path + "/IMG_0001.xmp"
        #expect(try run(["exiftool", "-q"] + Self.labelling + [sidecar]).isEmpty)
        let metadata = try #require(SidecarMetadata(Array(try Data(contentsOf: URL(fileURLWithPath: sidecar)))))
        let theirs = try exiftool(sidecar)
        #expect(Set(metadata.keywords) == [["Places", "France", "Paris"], ["AC/DC"]] && theirs.accountsFor(metadata.keywords, people: metadata.people))
        #expect(Set(metadata.people) == theirs.people && metadata.rating == 4)
        let json = #"{"title": "IMG_0001.jpg", "favorited": true, "people": [{"name": "Anna"}, {"name": "A\u0000B/C"}, {"name": ""}, {"name": "Anna"}, {}]}"#
        let takeout = try #require(SidecarMetadata(Array(json.utf8)))
        #expect(takeout.people == ["Anna", "A\u{0}B/C"] && takeout.favorite && takeout.keywords.isEmpty && takeout.rating == nil)
        #expect(SidecarMetadata(Array(#"{"favorited": false, "people": []}"#.utf8)) == nil, "says nothing")
    }

    /// IPTC records and Photoshop resources cut anywhere give the keywords that are whole (an
    /// extended-length dataset among them), Latin-1 unless 1:90 says UTF-8; a resource claiming
    /// more than there is gives none. An extended XMP missing a part is none.
    @Test func cutOrLyingIPTCAndExtendedXMP() {
        func dataset(_ record: UInt8, _ number: UInt8, _ value: [UInt8]) -> [UInt8] { [0x1C, record, number, UInt8(value.count >> 8), UInt8(value.count & 0xFF)] + value }
        func resources(_ records: [UInt8], claiming size: Int? = nil) -> [UInt8] {
            Array("8BIM".utf8) + [0x04, 0x04, 0, 0] + ByteOrder.bigEndian.bytes(of: size ?? records.count, count: 4) + records
        }
        let records = dataset(1, 90, [0x1B, 0x25, 0x47]) + dataset(2, 25, Array("Été".utf8)) + [0x1C, 2, 25, 0x80, 0x02, 0x00, 0x04] + Array("Long".utf8)
        let whole = IPTCKeywords.keywords(inResources: Array("8BIM".utf8) + [0x04, 0x0C, 3] + Array("abc".utf8) + [0, 0, 0, 1, 0x55, 0] + resources(records))
        #expect(whole.map { String(decoding: $0, as: UTF8.self) } == ["Été", "Long"], "after a resource of another kind, named and padded")
        #expect(IPTCKeywords.keywords(inResources: resources(dataset(2, 25, [0xC9, 0x74, 0xE9]))) == [Array("Été".utf8)], "Latin-1")
        for cut in 0..<records.count {
            let read = IPTCKeywords.keywords(inRecords: records[..<cut])
            #expect(whole.starts(with: read) && read.count <= 2, "cut at \(cut)")
        }
        #expect(IPTCKeywords.keywords(inResources: resources(records, claiming: records.count + 1)).isEmpty)

        let guid = Array("0123456789ABCDEF0123456789ABCDEF".utf8), rest = Array("<x>twenty bytes!</x>".utf8)
        func part(_ offset: Int, _ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
            (ExtendedXMP.header + guid + ByteOrder.bigEndian.bytes(of: rest.count, count: 4) + ByteOrder.bigEndian.bytes(of: offset, count: 4) + bytes)[...]
        }
        let main = XMPPacket(Array(#"<d xmpNote:HasExtendedXMP="0123456789ABCDEF0123456789ABCDEF"/>"#.utf8))!
        var extended = ExtendedXMP()
        extended.add(part(10, rest[10...]))
        #expect(extended.packet(continuing: main) == nil, "the first part is missing")
        extended.add(part(0, rest[..<10]))
        #expect(extended.packet(continuing: main) == rest)
        #expect(extended.packet(continuing: XMPPacket(Array("<d/>".utf8))!) == nil, "a main packet naming none")
    }

    /// What a sidecar says replaces the photo's own keywords, people and rating where it says any.
    @Test func aSidecarsLabelsReplaceThePhotosOwn() throws {
        var properties = PhotoProperties(date: .modificationTime(0))
        (properties.keywords, properties.people, properties.rating) = ([["Old"]], ["Anna"], 2)
        var sidecar = SidecarMetadata(date: nil, location: nil)
        (sidecar.keywords, sidecar.rating) = ([["New"]], 5)
        properties.complete(with: sidecar)
        #expect(properties.keywords == [["New"]] && properties.people == ["Anna"] && properties.rating == 5 && !properties.favorite)
    }

    // MARK: helpers

    func labels(_ packet: String) -> (keywords: [[String]], people: [String]) {
        var labels = Labels()
        XMPPacket(Array(packet.utf8))?.gather(into: &labels)
        return (labels.keywords, labels.uniquePeople)
    }

    func read(_ path: String) throws -> PhotoProperties {
        let file = try OwnedFileDescriptor.openReadOnly(FilePath(path))
        let format = SourceFormat.sniff((try? file.read(upTo: SourceFormat.headLength, at: 0)) ?? [], fileName: FilePath(path).lastComponent)
        return PhotoProperties.read(from: file.descriptor, modificationNanoseconds: 1_700_000_000_000_000_000, format: format)
    }

    /// What exiftool reads of a file's labels (`-j -struct`; `-m`, or it stops lists at 1000 items).
    func exiftool(_ path: String) throws -> ExiftoolLabels {
        let output = try run(["exiftool", "-m", "-j", "-struct", "-XMP:all", "-IPTC:all", path])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]]).first ?? [:]
        return ExiftoolLabels(json)
    }

    func run(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "\(arguments.prefix(3)): status \(process.terminationStatus)")
        return String(decoding: data, as: UTF8.self)
    }

    final class Scratch {
        let path: String
        init() throws {
            var template = Array("/tmp/assetfs-labels.XXXXXX".utf8CString)
            path = String(cString: try #require(mkdtemp(&template)))
        }
        deinit { try? FileManager.default.removeItem(atPath: path) }

        /// A copy of the fixture with exiftool's `assignments` written.
        func written(_ fixture: String, _ assignments: [String]) throws -> String {
            let copy = path + "/" + URL(fileURLWithPath: fixture).lastPathComponent
            _ = try LabelsTests().run(["exiftool", "-q", "-o", copy] + assignments + [Fixtures.path(fixture)])
            return copy
        }
    }
}

/// What exiftool reads of a file's labels: its keyword lists by tag, the people its regions and
/// `People` branches name, its rating.
struct ExiftoolLabels {
    var keywords: [String: [String]] = [:]
    var people = Set<String>()
    var rating: Int?
    static let separators: [String: Character] = ["HierarchicalSubject": "|", "TagsList": "/"]

    init(_ json: [String: Any]) {
        for tag in ["Subject", "Keywords", "HierarchicalSubject", "TagsList"] {
            keywords[tag] = (json[tag] as? [Any] ?? json[tag].map { [$0] } ?? []).map { "\($0)" }
        }
        let regions = ((json["RegionInfo"] as? [String: Any])?["RegionList"] as? [[String: Any]] ?? [])
            .filter { ($0["Type"] as? String ?? "Face") == "Face" }.compactMap { $0["Name"].map { "\($0)" } }
        let windows = ((json["RegionInfoMP"] as? [String: Any])?["Regions"] as? [[String: Any]] ?? []).compactMap { $0["PersonDisplayName"].map { "\($0)" } }
        let branches = Self.separators.flatMap { tag, separator in
            keywords[tag, default: []].map { $0.split(separator: separator).map(String.init) }.filter { $0.count > 1 && $0[0] == "People" }.map { $0.last! }
        }
        people = Set(regions + windows + branches).subtracting([""])
        rating = json["Rating"] as? Int
    }

    /// Whether each of our keywords is one exiftool reads (a path as a hierarchical one), and each
    /// exiftool reads is one of ours, a level or a beginning of one, or a person's name.
    func accountsFor(_ ours: [[String]], people: [String]) -> Bool {
        let flat = Set(keywords["Subject", default: []] + keywords["Keywords", default: []])
        func written(_ path: [String]) -> Bool {
            (path.count == 1 && flat.contains(path[0]))
                || Self.separators.contains { keywords[$0.key, default: []].contains(path.joined(separator: String($0.value))) }
        }
        let levels = Set(ours.joined()), beginnings = Set(ours.flatMap { path in (1...path.count).map { Array(path.prefix($0)) } })
        let flatAccounted = flat.allSatisfy { levels.contains($0) || people.contains($0) }
        let pathsAccounted = Self.separators.allSatisfy { tag, separator in
            keywords[tag, default: []].map { $0.split(separator: separator).map(String.init) }
                .allSatisfy { $0.first == "People" ? $0.count == 1 || people.contains($0.last!) : beginnings.contains($0) }
        }
        return ours.allSatisfy(written) && flatAccounted && pathsAccounted
    }
}
