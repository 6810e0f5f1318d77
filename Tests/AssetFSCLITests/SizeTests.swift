import Foundation
import Glibc
import Testing

extension Mounted {
    /// What stat says about a file is what reading it gives; renditions fit their boxes upright.
    @Suite struct SizeTests {
        @Test func statSizeIsTheByteCountAndMtimeIsTheSources() throws {
            let library = Library.naming
            try withScratch(library) { scratch in
                let mount = try scratch.mount()
                let renditions = library.renditions(mount: mount.bytes)
                // `cat | wc -c` counts what a read returns; `wc -c < file` would trust st_size.
                let sizes = Command.forEachPath(renditions.map(\.path), fields: 2,
                                                #"printf '%s\0%s\0' "$(stat -c %s -- "$f")" "$(cat -- "$f" | wc -c)""#)
                for (rendition, fields) in zip(renditions, sizes) {
                    #expect(Int(fields[0]) != nil && Int(fields[0]) == Int(fields[1]) && Int(fields[0])! > 0,
                            "\(rendition.path.text): stat -c %s gave \(fields[0]), cat | wc -c gave \(fields[1])")
                }
                for (album, asset) in library.allAssets {
                    let source = try RawFiles.status(scratch.sourceBytes / asset.source).get()
                    for file in ["thumbnail.jpg", "fullscreen.jpg", asset.original] {
                        let shown = try RawFiles.status(mount.groups / album.name / asset.name / file).get()
                        #expect(shown.st_mtim.tv_sec == source.st_mtim.tv_sec && shown.st_mtim.tv_nsec == source.st_mtim.tv_nsec,
                                "\(asset.name.text)/\(file): mtime differs from its source's")
                    }
                }
            }
        }

        @Test func originalsAreTheSourceFiles() throws {
            let library = Library.naming
            try withScratch(library) { scratch in
                let mount = try scratch.mount()
                let assets = library.allAssets
                let originals = assets.map { mount.groups / $0.album.name / $0.asset.name / $0.asset.original }
                let sources = assets.map { scratch.sourceBytes / $0.asset.source }
                let body = #"printf '%s\0%s\0' "$(sha256sum < "$f" | cut -d' ' -f1)" "$(stat -c %s -- "$f")""#
                let shown = Command.forEachPath(originals, fields: 2, body)
                let real = Command.forEachPath(sources, fields: 2, body)
                for (index, asset) in assets.enumerated() {
                    #expect(shown[index][0].count == 64 && shown[index] == real[index],
                            "\(asset.asset.name.text)/\(asset.asset.original): sha256 and size \(shown[index]) but the source has \(real[index])")
                }
                #expect(try mount.stats().renders == 0, "reading originals renders nothing")
            }
        }

        @Test func renditionsFitTheirBoxesUpright() throws {
            let library = Library.naming
            try withScratch(library) { scratch in
                let mount = try scratch.mount()
                let renditions = library.renditions(mount: mount.bytes)
                let sizes = Command.forEachPath(renditions.map(\.path), fields: 1,
                                                #"printf '%s\0' "$(cat -- "$f" | identify -format '%wx%h' -)""#)
                for (rendition, fields) in zip(renditions, sizes) {
                    expectFits(fields[0], sample: rendition.sample, box: rendition.fullscreen ? 1920 : 256, path: rendition.path)
                }
            }
        }

        /// `df MNT` and `df -i MNT` show SOURCE's filesystem, as sshfs shows the remote's: not a
        /// full disk with no free files, which monitoring alerts on.
        @Test func dfShowsTheSourcesFileSystem() throws {
            try withScratch(.small) { scratch in
                let mount = try scratch.mount()
                var shown = statvfs(), source = statvfs()
                try #require(statvfs(mount.point, &shown) == 0 && statvfs(scratch.source, &source) == 0)
                #expect(shown.f_frsize == source.f_frsize && shown.f_blocks == source.f_blocks && shown.f_files == source.f_files,
                        "size \(shown.f_blocks) blocks of \(shown.f_frsize) and \(shown.f_files) files, SOURCE's \(source.f_blocks) of \(source.f_frsize) and \(source.f_files)")
                // Free space and files move as the cache (on the same disk) is written: near, not equal.
                let slack = source.f_blocks / 100, fileSlack = source.f_files / 100
                #expect(shown.f_bavail > 0 && shown.f_bfree >= shown.f_bavail && shown.f_ffree > 0, "free \(shown.f_bavail) blocks, \(shown.f_ffree) files")
                #expect(shown.f_bavail.distance(to: source.f_bavail).magnitude <= slack && shown.f_ffree.distance(to: source.f_ffree).magnitude <= fileSlack,
                        "free \(shown.f_bavail) blocks and \(shown.f_ffree) files, SOURCE's \(source.f_bavail) and \(source.f_ffree)")
            }
        }

        @Test func thumbnailSizeOptionSetsTheBox() throws {
            let library = Library.naming
            try withScratch(library) { scratch in
                let mount = try scratch.mount(options: ["thumbnail_size=100"])
                let thumbnails = library.renditions(mount: mount.bytes).filter { !$0.fullscreen }
                let sizes = Command.forEachPath(thumbnails.map(\.path), fields: 1,
                                                #"printf '%s\0' "$(cat -- "$f" | identify -format '%wx%h' -)""#)
                for (thumbnail, fields) in zip(thumbnails, sizes) {
                    expectFits(fields[0], sample: thumbnail.sample, box: 100, path: thumbnail.path)
                }
            }
        }
    }
}

/// `identify`'s "WxH" of a rendition of `sample` fits a `box`-pixel square: longest side the box
/// (or the photo's own, never enlarged), upright aspect ratio to within a pixel of rounding.
func expectFits(_ dimensions: String, sample: String, box: Int, path: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
    let parts = dimensions.split(separator: "x").compactMap { Int($0) }
    guard parts.count == 2, let upright = TestData.uprightSize(sample) else {
        Issue.record("\(path.text): identify gave '\(dimensions)' (sample \(sample))", sourceLocation: sourceLocation)
        return
    }
    let (w, h) = (parts[0], parts[1])
    let long = max(upright.width, upright.height), short = min(upright.width, upright.height)
    let expectedLong = min(box, long)
    let expectedShort = max(1, Int((Double(short) * Double(expectedLong) / Double(long)).rounded()))
    let fits = max(w, h) == expectedLong && abs(min(w, h) - expectedShort) <= 1
        && (upright.width == upright.height || (w > h) == (upright.width > upright.height))
    #expect(fits, "\(path.text): \(w)x\(h), expected about \(upright.width >= upright.height ? "\(expectedLong)x\(expectedShort)" : "\(expectedShort)x\(expectedLong)") for the upright \(upright.width)x\(upright.height) \(sample) in a \(box) box",
            sourceLocation: sourceLocation)
}
