import Foundation
import Glibc
import Testing

extension Mounted {
    /// `-o sizes=medium:700`: a size between the thumbnail and the fullscreen, with everything the
    /// built-in two have: a file in every asset folder and a view, exact sizes, the cache (warm
    /// fills it, a mount reads it without rendering) and desktop thumbnails.
    @Suite struct NamedSizeTests {
        @Test func aNamedSizeHasItsFilesItsViewAndTheCache() throws {
            let library = Library.naming
            try withScratch(library) { scratch in
                let options = "cache=\(scratch.cache),sizes=medium:700"
                let warm = AssetFS.run(["warm", "--sizes", "medium", "-o", options, scratch.source], timeout: 300)
                // Copies of one sample share their renditions: rendered once, then already cached.
                let pictures = Set(library.allAssets.map { $0.asset.sample }).count
                #expect(warm.status == 0 && warm.out.contains("rendered \(pictures), already cached \(library.assetCount - pictures)"),
                        "warm: \(warm.out) \(warm.err)")

                let mount = try scratch.mount(options: ["sizes=medium:700"] + ThumbnailsTests.views)
                #expect(RawFiles.names(in: mount.bytes)?.map(\.text) == ["groups", "thumbnails", "fullscreen", "dates", "medium", "ids"])
                #expect((try? RawFiles.extendedAttribute("user.assetfs.sizes", of: mount.bytes).get())?.text == "thumbnail:256+fullscreen:1920+medium:700")
                var files: [[UInt8]] = []
                for (album, asset) in library.allAssets {
                    let folder = mount.groups / album.name / asset.name
                    #expect(RawFiles.names(in: folder)?.map(\.text) == ["thumbnail.jpg", "fullscreen.jpg", "medium.jpg", asset.original])
                    let file = folder / "medium.jpg", view = mount.bytes / "medium" / album.name / (asset.name + Array(".jpg".utf8))
                    let inFolder = try RawFiles.status(file).get(), inView = try RawFiles.status(view).get()
                    #expect(inFolder.st_ino == inView.st_ino && inFolder.st_nlink == 3, "\(file.text): one file under both names")
                    files.append(file)
                }
                // stat's size is what a read gives, and the picture fits the 700 px box upright.
                let shown = Command.forEachPath(files, fields: 3,
                                                #"printf '%s\0%s\0%s\0' "$(stat -c %s -- "$f")" "$(cat -- "$f" | wc -c)" "$(cat -- "$f" | identify -format '%wx%h' -)""#)
                for ((_, asset), (file, fields)) in zip(library.allAssets, zip(files, shown)) {
                    #expect(Int(fields[0]) != nil && fields[0] == fields[1], "\(file.text): stat \(fields[0]), read \(fields[1])")
                    expectFits(fields[2], sample: asset.sample, box: 700, path: file)
                }
                let stats = try mount.stats()
                #expect(stats.renders == 0 && stats.cacheHits >= library.assetCount, "warm --sizes medium filled the cache the mount reads: \(stats)")
                // Desktop thumbnails: each album's poster, and per asset its four files (in groups/ and dates/) and its three view files.
                ThumbnailsTests.waitForDates(mount, assets: library.contentCount)
                let seed = AssetFS.run(["thumbnails", mount.point],
                                       environment: ["PATH": Command.standardPath, "HOME": scratch.path + "/home", "XDG_CACHE_HOME": scratch.path + "/xdg"])
                let expected = library.albums.count + 7 * library.assetCount + 4 * library.contentCount
                #expect(seed.status == 0 && seed.out.hasPrefix("thumbnails: wrote \(expected), already valid 0"), "\(seed.out) \(seed.err)")
            }
        }

        @Test func badSizesAreRefusedWithTheReason() throws {
            for (option, reason) in [("sizes=Medium:700", "lower-case"), ("sizes=original:700", "taken"), ("sizes=medium:8", "outside"),
                                     ("sizes=medium", "NAME:PX"), ("sizes=a:100+a:200", "taken")] {
                let result = AssetFS.run(["warm", "-o", option, "/nonexistent"], timeout: 60)
                #expect(result.status != 0 && result.err.contains(reason), "\(option): \(result.err)")
            }
            let unknown = AssetFS.run(["warm", "--sizes", "large", "-o", "sizes=medium:700", "/tmp"], timeout: 60)
            #expect(unknown.status != 0 && unknown.err.contains("no size 'large'") && unknown.err.contains("medium"), "\(unknown.err)")
        }
    }
}
