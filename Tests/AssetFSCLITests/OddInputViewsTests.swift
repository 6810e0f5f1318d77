import Foundation
import Glibc
import Testing

extension Mounted {
    /// Issue 31's odd input through a real mount: names with `/`, NUL, `.` and `..`, 300-byte
    /// names, a thousand people in one photo (a Takeout JSON's, and MWG faces), a 10 MB XMP packet, a rating of 99, regions without
    /// names. The daemon stays up, `groups/` reads as before, every view's folders are valid names
    /// and `find` over each view ends with each photo once per folder.
    @Suite struct OddInputViewsTests {
        static let library = Library(sourceName: "Photos", albums: [
            // Four pictures (copies of one would be one asset in the views), none rated in itself.
            Library.Album(name: Array("Odd".utf8), assets: zip(["p1", "p2", "p3", "p4"], ["Casio_EX-S1", "Kodak_DX4330", "Sony_Cybershot_3", "Panasonic_DMC-LC40"]).map {
                Library.Asset(name: Array($0.utf8), source: Array("Odd/\($0).jpg".utf8), sample: "cameras/\($1).jpg")
            }),
        ])
        static let long = String(repeating: "x", count: 300)
        static let people = (0..<1000).map { "Person \($0)" }
        static let faces = (0..<1000).map { "Face \($0)" }

        /// A hand-made sidecar packet (exiftool writes no NUL, `.` nor `..` keywords).
        static let handMadePacket = """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:lr="http://ns.adobe.com/lightroom/1.0/">
            <dc:subject><rdf:Bag><rdf:li>nul&#0;here</rdf:li><rdf:li>slash/here</rdf:li><rdf:li>..</rdf:li><rdf:li>.</rdf:li></rdf:Bag></dc:subject>
            <lr:hierarchicalSubject><rdf:Bag><rdf:li>Deep|..|.|x/y</rdf:li><rdf:li>A||B</rdf:li></rdf:Bag></lr:hierarchicalSubject>
            </rdf:Description></rdf:RDF></x:xmpmeta>
            """

        static func exiftool(_ arguments: [String]) {
            let result = Command.run("exiftool", ["-q", "-overwrite_original"] + arguments, timeout: 120)
            #expect(result.status == 0, "exiftool \(arguments): \(result.err)")
        }

        static func names(_ path: [UInt8]) -> [String] {
            (RawFiles.names(in: path) ?? []).map { String(decoding: $0, as: UTF8.self) }.sorted()
        }

        static func makeOddLabels(in album: String, scratch: Scratch) throws {
            // p1: a 300-byte keyword, flat and in a path; a slash; a rating of 99; faces without names.
            exiftool(["-XMP-dc:Subject=\(long)", "-XMP-dc:Subject=a/b", "-XMP-lr:HierarchicalSubject=Top|\(long)|c/d", "-XMP:Rating=99",
                      "-XMP-mwg-rs:RegionInfo={RegionList=[{Type=Face},{Name=,Type=Face}]}", album + "/p1.jpg"])
            // p2: a Takeout JSON naming a thousand people, one with a slash and a NUL; favorited.
            let named = people.map { #"{"name": "\#($0)"}"# } + [#"{"name": "a/b\u0000c"}"#, #"{"name": ""}"#]
            let json = #"{"title": "p2.jpg", "favorited": true, "people": ["# + named.joined(separator: ",") + "]}"
            try RawFiles.write(Array(json.utf8), to: Array((album + "/p2.jpg.json").utf8))
            // p3: a 10 MB XMP sidecar packet with a keyword, a thousand named faces and a Windows rating of 99 percent (five stars).
            let filler = scratch.path + "/filler.txt"
            try RawFiles.write(Array(repeating: 0x61, count: 10 << 20), to: Array(filler.utf8))
            exiftool(["-XMP-dc:Description<=\(filler)", "-XMP-dc:Subject=Big", "-XMP-microsoft:RatingPercent=99",
                      "-XMP-mwg-rs:RegionInfo={RegionList=[\(faces.map { "{Name=\($0),Type=Face}" }.joined(separator: ","))]}",
                      "-o", album + "/p3.xmp", album + "/p3.jpg"])
            #expect(try RawFiles.status(Array((album + "/p3.xmp").utf8)).get().st_size > 10 << 20)
            // p4: NUL, `.` and `..` as keywords, hand-written.
            try RawFiles.write(Array(handMadePacket.utf8), to: Array((album + "/p4.xmp").utf8))
        }

        /// Every path under `view` by `find -print0` (which must end), relative to the mount.
        static func walk(_ view: [UInt8]) -> (paths: [[UInt8]], status: Int32) {
            let find = Command.run("find", [view.text, "-print0"], timeout: 120)
            return (find.nulFields, find.status)
        }

        @Test func oddLabelsMakeValidFoldersAndHarmNothingElse() throws {
            try withScratch(Self.library, changesSource: true) { scratch in
                let album = scratch.source + "/Odd"
                try Self.makeOddLabels(in: album, scratch: scratch)
                let mount = try scratch.mount()
                let root = mount.bytes
                let read = eventually(timeout: 90) {
                    Self.names(root / "tags").contains("Big") && Self.names(root / "people").count >= Self.people.count + Self.faces.count
                }
                #expect(read, "tags/: \(Self.names(root / "tags")), \(Self.names(root / "people").count) people, \(String(describing: try? mount.stats()))")
                #expect(mount.daemons.allSatisfy(Mount.isAlive), "the daemon is up")

                // What the labels say, where a name can say it.
                #expect(Set(Self.people).isSubset(of: Self.names(root / "people")), "all thousand people of p2")
                #expect(Self.names(root / "people" / "Person 999") == ["p2"])
                #expect(Set(Self.faces).isSubset(of: Self.names(root / "people")) && Self.names(root / "people" / "Face 999") == ["p3"],
                        "all thousand faces of p3's 10 MB packet")
                #expect(Self.names(root / "tags" / "Big") == ["p3"], "the keyword of the 10 MB packet")
                #expect(Self.names(root / "favorites") == ["p2", "p3"], "Takeout's favorite and 99 percent; not xmp:Rating 99")
                // groups/ reads as before: the album, and a photo's bytes.
                #expect(Self.names(mount.groups / "Odd") == ["p1", "p2", "p3", "p4", "thumbnail.jpg"])
                #expect(Command.run("cmp", [mount.point + "/groups/Odd/p4/original.jpg", album + "/p4.jpg"]).status == 0)

                for view in ["dates", "events", "places", "people", "tags", "favorites", "videos"] {
                    let walked = Self.walk(root / view)
                    #expect(walked.status == 0, "find over \(view)/ failed or did not end")
                    #expect(Set(walked.paths).count == walked.paths.count, "\(view)/: a path found twice")
                    var photosIn: [[UInt8]: [ino_t]] = [:]
                    for path in walked.paths {
                        let inView = path.dropFirst(root.count + 1).split(separator: 0x2F, omittingEmptySubsequences: false)
                        #expect(inView.allSatisfy { !$0.isEmpty && $0.count <= 255 && $0 != [0x2E] && $0 != [0x2E, 0x2E] },
                                "\(view)/: an invalid name in \(path.text)")
                        guard path.suffix(13) == Array("/original.jpg".utf8), let status = try? RawFiles.status(path).get() else { continue }
                        let folder = Array(path.dropLast(13).reversed().drop { $0 != 0x2F }.reversed())
                        photosIn[folder, default: []].append(status.st_ino)
                    }
                    for (folder, photos) in photosIn {
                        #expect(Set(photos).count == photos.count, "a photo twice in \(folder.text)")
                    }
                    print("\(view)/: \(walked.paths.count) paths, \(photosIn.count) folders holding photos")
                }
                // Named as Naming makes names: `/` as `／`, NUL left out, `.` and `..` no level, 300 bytes fitted.
                #expect(Self.names(root / "tags") == ["A", "Big", "Deep", "Top", "a／b", "nulhere", "slash／here"])
                #expect(Self.names(root / "tags" / "Deep") == ["x／y"] && Self.names(root / "tags" / "A") == ["B"])
                let fitted = Self.names(root / "tags" / "Top")
                #expect(fitted.count == 1 && fitted.allSatisfy { $0.utf8.count <= 255 && $0.hasSuffix(String(repeating: "x", count: 100)) },
                        "tags/Top: \(fitted)")
                #expect(Self.names(root / "tags" / "Top" / (fitted.first ?? "")) == ["c／d"])
                #expect(mount.daemons.allSatisfy(Mount.isAlive), "the daemon is still up after the walks")
            }
        }
    }
}
