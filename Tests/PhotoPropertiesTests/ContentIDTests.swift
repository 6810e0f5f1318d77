import Containers
import Foundation
import PhotoSource
import Posix
import TestFixtures
import Testing
@testable import PhotoProperties

/// Content ids: the same after tags are written into the file, different for different pictures,
/// shown as 26 letters.
@Suite struct ContentIDTests {
    /// One sample of each format whose picture's layout is walked, with the format it is.
    static let samples: [(file: String, format: SourceFormat)] = [
        ("formats/Nikon_D1X_AdobeRGB.jpg", .jpeg), ("motion/Pixel_motion_photo.jpg", .jpeg), ("formats/sampleWithExifData.png", .png),
        ("formats/iPhoneX_exif_orient6.webp", .webp), ("formats/hopper.gif", .gif), ("formats/rgb16_deflate.tiff", .tiff),
        ("formats/Nikon_D5300_small.heic", .heif), ("formats/grid_2x2_paintnet.avif", .avif), ("raw/Nikon_D70_stripped.nef", .raw),
        ("raw/Panasonic_LX3_stripped.rw2", .raw), ("raw/Canon_R6_pruned.cr3", .raw), ("video/Android_gps_3frames.mp4", .mp4),
        ("video/iPhone6s_livephoto.mov", .quickTime),
    ]
    /// The samples exiftool writes to (it refuses the pruned CR3: its media data is cut away).
    static let editable = samples.map(\.file).filter { $0 != "raw/Canon_R6_pruned.cr3" }

    static func id(_ path: String, _ format: SourceFormat) throws -> ContentID? {
        let file = try OwnedFileDescriptor.openReadOnly(FilePath(path))
        return ContentID.read(from: file.descriptor, format: format)
    }

    static func md5(ofFile path: String) -> [UInt8] { MD5.digest(Array(FileManager.default.contents(atPath: path) ?? Data())) }

    static func scratch() -> String {
        let folder = NSTemporaryDirectory() + "content-id-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Writes keywords, a rating and a date into the file at `path` (Debian's exiftool); its status.
    static func writeTags(into path: String) -> Int32 {
        system("exiftool -q -q -m -overwrite_original -XMP-dc:Subject+=Norway -XMP-xmp:Rating=5 -XMP-photoshop:DateCreated=2021:07:04 '\(path)'")
    }

    /// Keywords, a rating and a new date written by exiftool change the file, not its id.
    @Test(arguments: editable)
    func anExiftoolEditKeepsTheID(relative: String) throws {
        let format = Self.samples.first { $0.file == relative }!.format
        let folder = Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let copy = folder + "/" + (relative as NSString).lastPathComponent
        try FileManager.default.copyItem(atPath: Fixtures.path(relative), toPath: copy)
        let before = try #require(try Self.id(copy, format))
        let fileBefore = Self.md5(ofFile: copy)
        #expect(Self.writeTags(into: copy) == 0)
        #expect(Self.md5(ofFile: copy) != fileBefore, "exiftool wrote nothing into \(relative)")
        #expect(try Self.id(copy, format) == before)
    }

    /// ExifTool's ImageDataHash (13.10: Tests/Tools/image-data-hash.py), its own reading of where
    /// each format keeps its picture, agrees with the id on every sample it hashes: tags written
    /// into a copy leave both as they were, the picture turned upside down (ImageMagick) changes both.
    @Test func exiftoolsImageDataHashAgreesWithTheID() throws {
        let folder = Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let flippable: Set<SourceFormat> = [.jpeg, .png, .tiff, .webp]
        var pairs: [(original: String, other: String, format: SourceFormat, sameID: Bool)] = []
        for (index, relative) in Self.editable.enumerated() where relative != "formats/hopper.gif" {  // ExifTool hashes no GIF
            let format = Self.samples.first { $0.file == relative }!.format
            let original = Fixtures.path(relative), name = (relative as NSString).lastPathComponent
            let tagged = folder + "/tagged-\(index)-" + name, flipped = folder + "/flipped-\(index)-" + name
            try FileManager.default.copyItem(atPath: original, toPath: tagged)
            #expect(Self.writeTags(into: tagged) == 0)
            pairs.append((original, tagged, format, true))
            guard flippable.contains(format) else { continue }
            #expect(system("convert '\(original)' -flip '\(flipped)' 2>/dev/null") == 0)
            pairs.append((original, flipped, format, false))
        }
        let tool = Fixtures.root + "/../Tools/image-data-hash.py"
        let hashes = try Exiftool.run(["python3", tool] + pairs.flatMap { [$0.original, $0.other] }).split(separator: "\n", omittingEmptySubsequences: false)
        try #require(hashes.count >= pairs.count * 2, "\(tool) printed \(hashes.count) lines for \(pairs.count * 2) files")
        for (index, pair) in pairs.enumerated() {
            let (hash, otherHash) = (hashes[2 * index], hashes[2 * index + 1])
            let (id, otherID) = (try #require(try Self.id(pair.original, pair.format)), try Self.id(pair.other, pair.format))
            #expect(hash.count == 32, "no ImageDataHash of \(pair.original)")
            #expect((hash == otherHash) == pair.sameID && (id == otherID) == pair.sameID, "\(pair.other): ImageDataHash \(hash) and \(otherHash), id \(id) and \(otherID.map(String.init(describing:)) ?? "none")")
        }
        #expect(pairs.count == 16)  // 11 samples tagged, 5 of them turned
    }

    /// Every sample has an id of its own, and reading one twice gives the same.
    @Test func differentPicturesHaveDifferentIDs() throws {
        let ids = try Self.samples.map { try #require(try Self.id(Fixtures.path($0.file), $0.format)) }
        #expect(Set(ids).count == Self.samples.count)
        #expect(try Self.id(Fixtures.path(Self.samples[0].file), .jpeg) == ids[0])
    }

    /// A JPEG with no metadata at all (ImageMagick's, no EXIF thumbnail to hold a second SOS):
    /// its id is the MD5 of its bytes from SOS to EOI, as Python's hashlib computes it; stripping
    /// a copy of every tag (`exiftool -all=`) keeps it.
    @Test func aJPEGsIDIsTheMD5OfItsScans() throws {
        let folder = Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/plasma.jpg"
        #expect(system("convert -size 96x64 -seed 7 plasma: -strip -interlace Plane '\(path)'") == 0)
        let python = "import hashlib,sys; d=open(sys.argv[1],'rb').read(); print(hashlib.md5(d[d.find(b'\\xff\\xda'):d.rfind(b'\\xff\\xd9')+2]).hexdigest())"
        let expected = try Exiftool.run(["python3", "-c", python, path]).trimmingCharacters(in: .whitespacesAndNewlines)
        let id = try #require(try Self.id(path, .jpeg))
        #expect(id.digest.map { String(format: "%02x", $0) }.joined() == expected)
        #expect(system("exiftool -q -q -overwrite_original -Keywords=x -Artist=Anna '\(path)' && exiftool -q -q -overwrite_original -all= '\(path)'") == 0)
        #expect(try Self.id(path, .jpeg) == id)
    }

    /// Media data over the bound is read as slices spread over it, with its length: a byte in a
    /// slice changes the id, one between slices does not (the bound scaled down: data over 64 KiB
    /// read as 16 slices of 1 KiB, where the standard reads 16 of 1 MiB past 16 MiB).
    @Test func largeMediaDataIsSampled() throws {
        let mdatLength = 80 << 10, sampling = ContentID.Sampling(wholeUpTo: 64 << 10, samples: 16, sampleBytes: 1 << 10)
        func movie(changing offset: Int?) throws -> ContentID? {
            var bytes: [UInt8] = [0, 0, 0, 16] + Array("ftypisom".utf8) + [0, 0, 0, 0]
            bytes += ByteOrder.bigEndian.bytes(of: mdatLength + 8, count: 4) + Array("mdat".utf8)
            var data = (0..<mdatLength).map { UInt8(truncatingIfNeeded: $0 &* 31 >> 3) }
            if let offset { data[offset] ^= 0xFF }
            let file = try OwnedFileDescriptor.memoryFile(holding: bytes + data)
            return ContentID.read(from: file.descriptor, format: .mp4, sampling: sampling)
        }
        let plain = try #require(try movie(changing: nil))
        #expect(try movie(changing: 10) != plain)  // in the first slice
        #expect(try movie(changing: mdatLength - 1) != plain)  // in the last
        #expect(try movie(changing: 3000) == plain)  // between the first two (the second starts at 5393)
        #expect(try ContentID.read(from: OwnedFileDescriptor.memoryFile(holding: [0, 0, 0, 16] + Array("ftypisom".utf8) + [0, 0, 0, 0]).descriptor,
                                   format: .mp4, sampling: sampling) != plain)
    }

    @Test func textIsTwentySixLettersOfBase32() throws {
        #expect(ContentID(digest: [UInt8](repeating: 0, count: 16))?.description == String(repeating: "a", count: 26))
        let ones = try #require(ContentID(digest: [UInt8](repeating: 0xFF, count: 16)))
        #expect(ones.description == String(repeating: "7", count: 25) + "4")
        let some = try #require(ContentID(digest: (0..<16).map { UInt8($0 * 17) }))
        #expect(ContentID(text: Array(some.description.utf8)) == some)
        for bad in [String(repeating: "7", count: 26), String(repeating: "a", count: 25), String(repeating: "A", count: 26), some.description + "a"] {
            #expect(ContentID(text: Array(bad.utf8)) == nil, "\(bad)")
        }
    }
}
