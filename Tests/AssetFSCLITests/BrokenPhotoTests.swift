import Foundation
import Glibc
import Testing

extension Mounted {
    /// A photo that cannot be decoded: its renditions show a placeholder (or fail with EIO under
    /// `-o broken=error`), everything else works.
    @Suite struct BrokenPhotoTests {
        /// Samples expectations.csv marks undecodable although they start like a JPEG (FF D8).
        static let broken = ["malformed/missing-sos.jpg", "malformed/null_height.jpg", "malformed/max_size_65535x65535.jpg"]

        static var library: Library {
            Library(sourceName: "Photos", albums: [
                Library.Album(name: Array("Mixed".utf8), assets: [
                    Library.Asset(name: Array("a-good".utf8), source: Array("Mixed/a-good.jpg".utf8), sample: "cameras/Casio_EX-S1.jpg"),
                ] + broken.map { sample in
                    let stem = String(sample.split(separator: "/").last!.dropLast(4))
                    return Library.Asset(name: Array(stem.utf8), source: Array("Mixed/\(stem).jpg".utf8), sample: sample)
                }),
            ])
        }

        @Test func samplesAreUndecodableJPEGs() throws {
            for sample in Self.broken {
                #expect(TestData.expectations[sample]?.decodes == "no", "\(sample) in expectations.csv")
                #expect(try TestData.contents(sample).starts(with: [0xFF, 0xD8]), "\(sample) starts with SOI, so it is shown")
            }
        }

        @Test(arguments: [false, true]) func renditionsShowAPlaceholderOrFailAndTheRestWorks(asErrors: Bool) throws {
            let library = Self.library
            try withScratch(library) { scratch in
                let mount = try scratch.mount(options: asErrors ? ["broken=error"] : [])
                let album = mount.groups / "Mixed"
                var placeholders: Set<[UInt8]> = []
                for asset in library.albums[0].assets.dropFirst() {
                    let folder = album / asset.name
                    for file in ["thumbnail.jpg", "fullscreen.jpg"] {
                        let path = folder / file
                        let stat = Command.run("stat", ["-c", "%s", path.text])
                        let cat = Command.run("cat", [path.text])
                        if asErrors {
                            #expect(statErrno(path) == EIO, "stat \(path.text)")
                            #expect(stat.status != 0 && stat.err.contains("Input/output error"), "stat: \(stat.out) \(stat.err)")
                            #expect(cat.status != 0 && cat.stdout.isEmpty && cat.err.contains("Input/output error"), "cat: \(cat.err)")
                        } else {
                            #expect(stat.status == 0 && Int(stat.out.trimmingCharacters(in: .whitespacesAndNewlines)) == cat.stdout.count, "stat: \(stat.out) \(stat.err)")
                            #expect(cat.status == 0 && cat.stdout.starts(with: [0xFF, 0xD8]), "cat: \(cat.err)")
                            placeholders.insert(cat.stdout)
                        }
                    }
                    if !asErrors {
                        let reason = RawFiles.extendedAttribute("user.assetfs.error", of: folder)
                        #expect((try? reason.get())?.isEmpty == false, "user.assetfs.error of \(asset.name.text): \(reason)")
                    }
                    // The photo itself reads as it is.
                    let original = Command.run("cat", [(folder / "original.jpg").text])
                    let photo = try TestData.contents(asset.sample)
                    #expect(original.status == 0 && original.stdout == photo, "\(asset.name.text)/original.jpg")
                    // Still listed.
                    #expect(Set(RawFiles.names(in: folder) ?? []) == Set(["thumbnail.jpg", "fullscreen.jpg", "original.jpg"].map { Array($0.utf8) }))
                }
                let ls = Command.run("ls", ["--color=never", album.text])
                #expect(ls.status == 0 && ls.out == "a-good\nmax_size_65535x65535\nmissing-sos\nnull_height\nthumbnail.jpg\n", "ls: \(ls.out) \(ls.err)")

                // The good photo and the poster (its thumbnail) work.
                for path in [album / "thumbnail.jpg", album / "a-good" / "thumbnail.jpg", album / "a-good" / "fullscreen.jpg"] {
                    let bytes = RawFiles.read(path)
                    #expect((try? bytes.get())?.starts(with: [0xFF, 0xD8]) == true, "\(path.text): \(bytes)")
                }
                #expect(placeholders.count <= 1, "one placeholder picture for every broken rendition")
                let stats = try mount.stats()
                #expect(stats.renderFailures == 2 * Self.broken.count, "one failure per broken rendition, remembered: \(stats)")
                #expect(stats.assets == 1 + Self.broken.count)
            }
        }
    
        /// The album poster is the thumbnail of the first photo that renders, and a walk of the
        /// album (du stats everything) goes through.
        @Test func brokenFirstPhotoLeavesThePosterToTheNext() throws {
            let library = Library(sourceName: "Photos", albums: [
                Library.Album(name: Array("Bad".utf8), assets: [
                    Library.Asset(name: Array("a-broken".utf8), source: Array("Bad/a-broken.jpg".utf8), sample: "malformed/missing-sos.jpg"),
                    Library.Asset(name: Array("b-good".utf8), source: Array("Bad/b-good.jpg".utf8), sample: "cameras/Casio_EX-S1.jpg"),
                ]),
            ])
            try withScratch(library) { scratch in
                let mount = try scratch.mount()
                let album = mount.groups / "Bad"
                #expect(Set(RawFiles.names(in: album) ?? []) == Set(["thumbnail.jpg", "a-broken", "b-good"].map { Array($0.utf8) }))
                #expect(statErrno(album / "thumbnail.jpg") == 0)
                #expect(statErrno(album / "a-broken" / "thumbnail.jpg") == 0)
                let good = try RawFiles.read(album / "b-good" / "thumbnail.jpg").get()
                #expect(good.starts(with: [0xFF, 0xD8]))
                #expect(try RawFiles.read(album / "thumbnail.jpg").get() == good)
                let du = Command.run("du", ["-a", album.text])  // walks everything, stat included
                #expect(du.status == 0 && du.out.contains("b-good/original.jpg"), "du: \(du.out) \(du.err)")
                let stats = try mount.stats()
                #expect(stats.renderFailures == 2, "the broken photo's thumbnail (tried once for the poster too) and fullscreen: \(stats)")
            }
        }
    }
}
