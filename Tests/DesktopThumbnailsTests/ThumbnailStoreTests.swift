import DesktopThumbnails
import Foundation
import Posix
import Testing

@Suite struct ThumbnailStoreTests {
    private func scratch() throws -> String {
        var template = Array("/tmp/desktop-thumbnails.XXXXXX".utf8CString)
        let made = try #require(mkdtemp(&template))
        return String(cString: made)
    }

    private func mode(_ path: String) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    @Test func rootAsGLibPicksIt() {
        #expect(ThumbnailStore.defaultRoot(environment: ["XDG_CACHE_HOME": "/x/cache", "HOME": "/home/u"]) == FilePath("/x/cache/thumbnails"))
        #expect(ThumbnailStore.defaultRoot(environment: ["XDG_CACHE_HOME": "", "HOME": "/home/u"]) == FilePath("/home/u/.cache/thumbnails"))
        #expect(ThumbnailStore.defaultRoot(environment: [:]) == nil)
    }

    @Test func storesAtomicallyWithTheStandardsModes() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = ThumbnailStore(root: FilePath(folder + "/cache/thumbnails"), failureFolder: "assetfs-9.9", software: "assetfs test")
        let subject = ThumbnailSubject(path: Array("/mnt/a b/ü.jpg".utf8), modificationSeconds: 1_700_000_000, size: 4321, mimeType: "image/jpeg")

        try store.storeFailure(subject)
        let failure = folder + "/cache/thumbnails/fail/assetfs-9.9/" + subject.thumbnailName
        #expect(FileManager.default.fileExists(atPath: failure))
        #expect(try mode(failure) == 0o600)

        try store.store(subject, size: .normal, pixels: [UInt8](repeating: 7, count: 4 * 3 * 3), width: 4, height: 3, channels: 3)
        let path = folder + "/cache/thumbnails/normal/" + subject.thumbnailName
        #expect(store.path(of: subject, size: .normal) == FilePath(path))
        #expect(try mode(path) == 0o600)
        for made in ["/cache", "/cache/thumbnails", "/cache/thumbnails/normal", "/cache/thumbnails/fail", "/cache/thumbnails/fail/assetfs-9.9"] {
            #expect(try mode(folder + made) == 0o700, "\(made)")
        }
        #expect(!FileManager.default.fileExists(atPath: failure), "a thumbnail replaces our failure entry")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/cache/thumbnails/normal") == [subject.thumbnailName],
                "no temporary file left")

        let text = PNG.textChunks(in: Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        #expect(text == ["Thumb::URI": "file:///mnt/a%20b/%C3%BC.jpg", "Thumb::MTime": "1700000000", "Thumb::Size": "4321",
                         "Thumb::Mimetype": "image/jpeg", "Software": "assetfs test"])

        #expect(store.isCurrent(FilePath(path), for: subject))
        var changed = subject
        changed.modificationSeconds += 1
        #expect(!store.isCurrent(FilePath(path), for: changed))
        changed = subject
        changed.size = nil
        #expect(!store.isCurrent(FilePath(path), for: changed))
        #expect(!store.isCurrent(store.path(of: subject, size: .large), for: subject), "none there")
    }
}
