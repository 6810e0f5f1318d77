import Glibc
import MountModel
import Posix
import Renditions
import TestFixtures
import Testing
@testable import AssetFS

/// Issue 29: a photo libheif cannot show, shown from the largest picture its file carries.
@Suite struct PreviewRenditionTests {
    /// A HEIC whose primary image no decoder reads (its item type edited), with a 240x160
    /// thumbnail item: its renditions are that item's picture, cached like any rendition (a later
    /// mount reads the same bytes without rendering), and `user.assetfs.error` says it is a
    /// preview and why, in that later mount too.
    @Test func aPhotoShownFromItsThumbnailItemIsARealRenditionAndSaysWhy() throws {
        let fixture = Fixture([:])
        let photo = fixture.source.appending(FilePath("A/cheers.heic"))
        let tool = Fixtures.packageRoot + "/Tests/Tools/heif-edit.py"
        try #require(system("mkdir -p '\(fixture.source)/A' && '\(tool)' primary-type '\(Fixtures.path("formats/cheers_1440x960.heic"))' '\(photo)' hvcX") == 0)
        let fs = try fixture.fileSystem()
        let placeholder = try #require(Renderer.placeholder)
        let names = ["thumbnail.jpg", "fullscreen.jpg"]
        let bytes = try names.map { try fs.readAll("groups/A/cheers/\($0)").get() }
        for (name, rendition) in zip(names, bytes) {
            #expect(rendition != placeholder && rendition.starts(with: [0xFF, 0xD8]), "\(name)")
            #expect(try fs.lookupPath("groups/A/cheers/\(name)").get().size == Int64(rendition.count), "\(name)")
        }
        let reason = try Self.errorAttribute(fs, "groups/A/cheers")
        #expect(reason.contains("cheers.heic") && reason.contains("240x160 thumbnail item (a preview)") && reason.contains("libheif"), "\(reason)")
        // Listed with the broken ones (`assetfs broken`, stats): its asset folder says what is wrong.
        #expect(fs.catalog.read { fs.brokenAssets(in: $0) } == [AssetFileSystem.BrokenAsset(mountPath: FilePath("groups/A/cheers"), reason: reason)])
        fs.shutdown()

        let later = try fixture.fileSystem()
        #expect(try names.map { try later.readAll("groups/A/cheers/\($0)").get() } == bytes)
        #expect(later.renders == 0)
        #expect(try Self.errorAttribute(later, "groups/A/cheers") == reason)
        later.shutdown()
    }

    static func errorAttribute(_ fs: AssetFileSystem, _ path: String) throws -> String {
        let asset = try fs.lookupPath(path).get()
        #expect(fs.extendedAttributeNames(asset.inode, as: .ofThisProcess).contains(MountLayout.errorAttribute))
        return String(decoding: try fs.extendedAttribute(asset.inode, name: MountLayout.errorAttribute, as: .ofThisProcess).get(), as: UTF8.self)
    }
}
