import Foundation
import Glibc
import Testing

extension Mounted {
    /// The cache and the inode numbers outlive a mount.
    @Suite struct RemountTests {
        @Test func secondMountRendersNothingAndKeepsInodeNumbers() throws {
            let library = Library.small
            try withScratch(library) { scratch in
                let first = try scratch.mount()
                let paths = Command.run("find", Library.findArguments(first.point)).nulFields
                #expect(paths.count == library.expectedPaths(mount: first.bytes).count)
                let thumbnails = library.thumbnails(mount: first.bytes)
                let readBefore = thumbnails.map { try? RawFiles.read($0).get() }
                // stat everything (fullscreens render here too), then read the thumbnails.
                let inodesBefore = Command.forEachPath(paths, fields: 1, #"printf '%s\0' "$(stat -c %i -- "$f")""#).map { $0[0] }
                let firstStats = try first.stats()
                #expect(firstStats.renders == 2 * library.assetCount, "\(firstStats)")
                first.unmount()
                #expect(!Mount.isMounted(scratch.mountpoint))

                let second = try scratch.mount()
                let inodesAfter = Command.forEachPath(paths, fields: 1, #"printf '%s\0' "$(stat -c %i -- "$f")""#).map { $0[0] }
                let readAfter = thumbnails.map { try? RawFiles.read($0).get() }
                for (index, path) in paths.enumerated() {
                    #expect(!inodesBefore[index].isEmpty && inodesBefore[index] == inodesAfter[index],
                            "\(path.text): inode \(inodesBefore[index]) then \(inodesAfter[index])")
                }
                #expect(readBefore.allSatisfy { $0 != nil } && readAfter == readBefore, "thumbnails differ across the remount")
                let stats = try second.stats()
                #expect(stats.renders == 0, "\(stats)")
                #expect(stats.cacheHits > 0, "\(stats)")
            }
        }
    
        /// `warm` of a SOURCE changed since its last mount brings the catalog up to date first: the
        /// photos added meanwhile are warmed too, and the next mount renders none of them.
        @Test func warmSeesPhotosAddedSinceTheLastMount() throws {
            try withScratch(.small, changesSource: true) { scratch in
                try scratch.mount().unmount()
                let added = (1...8).map { "Holiday/new\($0).jpg" }
                for (index, name) in added.enumerated() {
                    var bytes = try TestData.contents("cameras/Nikon_D5000.jpg")
                    bytes += Array("\(index)".utf8)  // after the JPEG's end: each file its own photo
                    try RawFiles.write(bytes, to: Array((scratch.source + "/" + name).utf8))
                }
                let warm = AssetFS.run(["warm", "-o", "cache=\(scratch.cache)", scratch.source], timeout: 300)
                #expect(warm.status == 0 && warm.out.hasSuffix("(11 renditions of 11 photos)\n"), "warm: \(warm.out) \(warm.err)")
                let mount = try scratch.mount()
                for index in 1...8 { #expect((try? RawFiles.read(mount.groups / "Holiday" / "new\(index)" / "thumbnail.jpg").get()) != nil) }
                let stats = try mount.stats()
                #expect(stats.renders == 0, "the next mount rendered what warm should have: \(stats)")
            }
        }

        /// A photo that failed to render is not tried again on the next mount: the cache keeps the failure.
        @Test func failuresAreRememberedAcrossRemounts() throws {
            let library = Library(sourceName: "Photos", albums: [
                Library.Album(name: Array("A".utf8), assets: [
                    Library.Asset(name: Array("broken".utf8), source: Array("A/broken.jpg".utf8), sample: "malformed/missing-sos.jpg"),
                    Library.Asset(name: Array("good".utf8), source: Array("A/good.jpg".utf8), sample: "cameras/Casio_EX-S1.jpg"),
                ]),
            ])
            try withScratch(library) { scratch in
                let thumbnail = Array((scratch.mountpoint + "/groups/A/broken/thumbnail.jpg").utf8)
                let first = try scratch.mount(options: ["broken=error"])
                #expect(statErrno(thumbnail) == EIO)
                #expect(try first.stats().renderFailures == 1)
                first.unmount()
                let second = try scratch.mount(options: ["broken=error"])
                #expect(statErrno(thumbnail) == EIO)
                let stats = try second.stats()
                #expect(stats.renders == 0 && stats.renderFailures == 0, "\(stats)")
            }
        }
    }
}
