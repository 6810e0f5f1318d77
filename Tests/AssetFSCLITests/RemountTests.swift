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
