import Catalog
import Dispatch
import Foundation
import MountModel
import PhotoSource
import Posix
import RenditionCache
import Renditions
import Synchronization
import Testing
@testable import AssetFS

/// An edit paired with its original is what the asset's renditions are made from, for every
/// path that makes or judges one: the mount, `assetfs warm`'s list, `user.assetfs.error`,
/// `assetfs broken` and the cache's pruning (`CatalogSnapshot.renditionSource(of:)`).
@Suite struct EditRenditionSourceTests {
    /// An iPhone export's pair in album A, one shot (date and camera written by exiftool), the
    /// half named in `broken` made a JPEG with that EXIF but no scan (libjpeg: missing SOS).
    static func pair(broken: String) throws -> Fixture {
        let fixture = Fixture(["A/IMG_0003.JPG": "cameras/Casio_EX-S1.jpg", "A/IMG_E0003.JPG": "orientation/Landscape_1.jpg"])
        let album = "\(fixture.source)/A"
        #expect(system("exiftool -q -q -overwrite_original -all= '-DateTimeOriginal=2024:03:05 10:00:00' -Make=Apple '-Model=iPhone 12' '\(album)/IMG_0003.JPG' '\(album)/IMG_E0003.JPG'") == 0)
        let path = "\(album)/\(broken)"
        let tagged = try #require(FileManager.default.contents(atPath: path))
        let noScan = try #require(FileManager.default.contents(atPath: "\(Fixture.testdata)/malformed/missing-sos.jpg"))
        try Data(Self.appSegments(Array(tagged)) + Array(noScan).dropFirst(2)).write(to: URL(fileURLWithPath: path))
        return fixture
    }

    /// SOI and the APPn segments after it (where exiftool keeps the EXIF).
    static func appSegments(_ jpeg: [UInt8]) -> [UInt8] {
        var end = 2
        while end + 4 <= jpeg.count, jpeg[end] == 0xFF, (0xE0...0xEF).contains(jpeg[end + 1]) {
            end += 2 + Int(jpeg[end + 2]) << 8 + Int(jpeg[end + 3])
        }
        return Array(jpeg[..<end])
    }

    /// The file system over `fixture`, its photos' properties read so the pair is made.
    static func paired(_ fixture: Fixture) throws -> AssetFileSystem {
        let fs = try fixture.fileSystem()
        fs.readPendingProperties()
        #expect(fs.catalog.read { $0.allRenditionSources().map(\.photo.fileName) } == [Array("IMG_E0003.JPG".utf8)], "warm renders the edit only")
        let edited = try fs.lookupPath("groups/A/IMG_0003/edited.jpg").get()
        #expect(edited.size == Int64(try #require(FileManager.default.contents(atPath: "\(fixture.source)/A/IMG_E0003.JPG")).count))
        return fs
    }

    static func errorAttribute(_ fs: AssetFileSystem, _ path: String) throws -> String? {
        let asset = try fs.lookupPath(path).get()
        return (try? fs.extendedAttribute(asset.inode, name: MountLayout.errorAttribute, as: .ofThisProcess).get()).map { String(decoding: $0, as: UTF8.self) }
    }

    /// What `assetfs warm` does for one request: stores its rendition, or the failure.
    static func warm(_ fs: AssetFileSystem, _ photo: Photo) -> RenditionPipeline.WarmResult {
        let result = Mutex<RenditionPipeline.WarmResult?>(nil)
        let done = DispatchSemaphore(value: 0)
        fs.pipeline.ensureStored(RenditionRequest(photo: photo, spec: fs.options.spec(fs.options.sizes.thumbnail))) { outcome in
            result.withLock { $0 = outcome }
            done.signal()
        }
        done.wait()
        return result.withLock { $0! }
    }

    /// The edit cannot be shown: the asset is broken, by the edit's reason, though its original is fine.
    @Test func aBrokenEditBreaksItsAsset() throws {
        let fixture = try Self.pair(broken: "IMG_E0003.JPG")
        let fs = try Self.paired(fixture)
        #expect(try fs.readAll("groups/A/IMG_0003/thumbnail.jpg").get() == Renderer.placeholder)
        let reason = try #require(try Self.errorAttribute(fs, "groups/A/IMG_0003"))
        #expect(reason.hasPrefix("A/IMG_E0003.JPG: "), "\(reason)")
        #expect(fs.catalog.read { fs.brokenAssets(in: $0) } == [AssetFileSystem.BrokenAsset(mountPath: FilePath("groups/A/IMG_0003"), reason: reason)])
    }

    /// The original cannot be rendered but is never shown as a rendition: a failure of it (as an
    /// older `warm` stored) neither breaks the asset nor keeps its rendition from being pruned.
    @Test func aBrokenOriginalUnderAGoodEditIsNotBroken() throws {
        let fixture = try Self.pair(broken: "IMG_0003.JPG")
        let fs = try Self.paired(fixture)
        let original = try #require(fs.catalog.read { $0.photo(at: FilePath("A/IMG_0003.JPG"))?.photo })
        guard case .failed = Self.warm(fs, original) else { Issue.record("the original rendered"); return }
        #expect(try Self.errorAttribute(fs, "groups/A/IMG_0003") == nil)
        #expect(fs.catalog.read { fs.brokenAssets(in: $0) }.isEmpty)
        let thumbnail = try fs.readAll("groups/A/IMG_0003/thumbnail.jpg").get()
        #expect(thumbnail.starts(with: [0xFF, 0xD8]) && thumbnail != Renderer.placeholder)
        let edit = fs.catalog.read { $0.allRenditionSources() }[0].photo
        let spec = fs.options.spec(fs.options.sizes.thumbnail)
        #expect(fs.catalog.read { RenditionRequest.isCurrent(RenditionRequest(photo: edit, spec: spec).key, in: $0) })
        #expect(!fs.catalog.read { RenditionRequest.isCurrent(RenditionRequest(photo: original, spec: spec).key, in: $0) })
    }
}
