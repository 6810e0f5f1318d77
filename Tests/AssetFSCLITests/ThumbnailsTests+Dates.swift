import Foundation
import Glibc
import Testing

/// The timeline in desktop thumbnails: `dates/` is seeded as every view is, and a broken photo's
/// failure entries are where GLib reads them.
extension Mounted.ThumbnailsTests {
    /// Waits until each of `assets` has its folder in dates/ (dates are read in the background),
    /// so that the seeding meets the whole timeline.
    static func waitForDates(_ mount: Mount, assets: Int) {
        let dated = { Command.run("find", [mount.point + "/dates", "-mindepth", "3", "-maxdepth", "3", "-type", "d", "-printf", "."]).out.count }
        #expect(eventually(timeout: 30) { dated() == assets }, "\(dated()) of \(assets) assets in dates/")
    }

    /// Waits for the content id of each of the `assets` asset folders of groups/: the last of the
    /// background's reading of photos, after which nothing opens them unasked.
    static func waitForIDs(_ mount: Mount, assets: Int) {
        let identified = {
            Command.bash(#"for f in "$1"/groups/*/*/; do getfattr --only-values -n user.assetfs.id "$f" >/dev/null 2>&1 && printf .; done"#, [mount.point]).out.count
        }
        #expect(eventually(timeout: 30) { identified() == assets }, "\(identified()) of \(assets) assets with their ids")
    }

    /// The timeline as a file manager browses it: GLib finds the thumbnail of every file of a
    /// dates/ asset folder, and for a broken photo's originals (in dates/ and groups/) its own
    /// failure entry (`thumbnail::failed`), so it does not try them itself.
    @Test func gioFindsThumbnailsInDatesAndFailuresOfBrokenOriginals() throws {
        let library = Library(sourceName: "Photos", albums: [
            Library.Album(name: Self.b("Mixed"), assets: [
                Library.Asset(name: Self.b("a-good"), source: Self.b("Mixed/a-good.jpg"), sample: "cameras/Casio_EX-S1.jpg"),
                Library.Asset(name: Self.b("broken"), source: Self.b("Mixed/broken.jpg"), sample: "malformed/missing-sos.jpg"),
            ]),
        ])
        try withScratch(library) { scratch in
            let mount = try scratch.mount()
            let cache = scratch.path + "/xdg-cache"
            Self.waitForDates(mount, assets: 2)
            let seed = AssetFS.run(["thumbnails", mount.point], environment: Self.environment(cache: cache))
            #expect(seed.status == 0, "\(seed.out) \(seed.err)")
            let dated = Command.run("find", [mount.point + "/dates", "-mindepth", "4", "-type", "f", "-print0"]).stdout.split(separator: 0).map(Array.init)
            #expect(dated.count == 6, "three files of each dated asset: \(dated.map(\.text))")
            let script = """
                export XDG_CACHE_HOME='\(cache)' HOME='\(cache)/home'
                out=$(gio info -a thumbnail::path,thumbnail::failed -- "$f" 2>&1)
                printf '%s\\0' "$(printf '%s\\n' "$out" | sed -n 's/^  thumbnail::path: //p')" \
                    "$(printf '%s\\n' "$out" | sed -n 's/^  thumbnail::failed: //p')"
                """
            let brokenOriginals = [mount.groups / "Mixed" / "broken" / "original.jpg"] + dated.filter { $0.text.hasSuffix("/broken/original.jpg") }
            #expect(brokenOriginals.count == 2)
            let checked = dated + [brokenOriginals[0]]
            for (file, info) in zip(checked, Command.forEachPath(checked, fields: 2, script)) {
                if brokenOriginals.contains(file) {
                    #expect(info[1] == "TRUE", "\(file.text): thumbnail::failed \(info)")
                } else {
                    #expect(info[0].hasPrefix(cache + "/thumbnails/large/"), "\(file.text): thumbnail::path \(info)")
                }
            }
        }
    }
}
