import Foundation
import Glibc
import Testing

extension Mounted {
    /// `assetfs thumbnails` checked by GLib itself (`gio`, the library GNOME Files lists folders
    /// and finds thumbnails with), headless, with HOME and XDG_CACHE_HOME in the scratch folder.
    @Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: Command.resolve("gio")),
                    "gio is missing (apt-get install libglib2.0-bin)"))
    struct ThumbnailsTests {
        static func b(_ text: String) -> [UInt8] { Array(text.utf8) }

        /// An album whose name has a space, non-ASCII letters and `／` (a nested folder), holding
        /// photos named with a space, bytes that are not UTF-8, URI-reserved characters and a
        /// newline; one grey photo and one stored sideways (EXIF 6).
        static let library = Library(sourceName: "Photos", albums: [
            Library.Album(name: b("2024／Été à Paris"), assets: [
                Library.Asset(name: b("a#b%c?d;e[1]"), source: b("2024/Été à Paris/a#b%c?d;e[1].jpg"), sample: "cameras/Casio_EX-S1.jpg"),
                Library.Asset(name: b("bad") + [0xFF, 0xFE], source: b("2024/Été à Paris/bad") + [0xFF, 0xFE] + b(".jpg"),
                              sample: "malformed/grayscale.jpg"),
                Library.Asset(name: b("new\nline"), source: b("2024/Été à Paris/new\nline.jpg"), sample: "orientation/Landscape_6.jpg"),
                Library.Asset(name: b("with space"), source: b("2024/Été à Paris/with space.jpg"), sample: "cameras/Samsung_GT-I9000_Galaxy_S.jpg"),
            ]),
            Library.Album(name: b("Plain"), assets: [
                Library.Asset(name: b("one"), source: b("Plain/one.jpg"), sample: "cameras/Nikon_D5000.jpg"),
            ]),
        ])

        /// Every file of album `index`: its poster and asset files, its files in both views, and
        /// (with `source`) its photos in SOURCE.
        static func files(of index: Int, mount: [UInt8], source: [UInt8]?) -> [[UInt8]] {
            let album = library.albums[index]
            var files = [mount / "groups" / album.name / "thumbnail.jpg"]
            for asset in album.assets {
                for name in ["thumbnail.jpg", "fullscreen.jpg", "original.jpg"] { files.append(mount / "groups" / album.name / asset.name / name) }
                for view in ["thumbnails", "fullscreen"] { files.append(mount / view / album.name / (asset.name + b(".jpg"))) }
                if let source { files.append(source / asset.source) }
            }
            return files
        }

        /// Of the views beside groups/, dates/ only: the seeding's walk knows no view by name, and
        /// one view is enough to count each asset's files in every place it is shown.
        static let views = ["views=dates"]

        static func environment(cache: String) -> [String: String] {
            ["PATH": Command.standardPath, "HOME": cache + "/home", "XDG_CACHE_HOME": cache]
        }

        /// `gio info -a thumbnail::path,thumbnail::is-valid` of each path, with XDG_CACHE_HOME=`cache`:
        /// (the URI gio names the file by, thumbnail::path, thumbnail::is-valid) per path.
        static func gioInfo(_ paths: [[UInt8]], cache: String) -> [(uri: String, path: String, valid: String)] {
            let script = """
                export XDG_CACHE_HOME='\(cache)' HOME='\(cache)/home'
                out=$(gio info -a thumbnail::path,thumbnail::is-valid -- "$f" 2>&1)
                printf '%s\\0' "$(printf '%s\\n' "$out" | sed -n 's/^uri: //p')" \
                    "$(printf '%s\\n' "$out" | sed -n 's/^  thumbnail::path: //p')" \
                    "$(printf '%s\\n' "$out" | sed -n 's/^  thumbnail::is-valid: //p')"
                """
            return Command.forEachPath(paths, fields: 3, script).map { ($0[0], $0[1], $0[2]) }
        }

        @Test func gioFindsValidThumbnailsOfEveryFileAndListingRendersNothing() throws {
            try withScratch(Self.library) { scratch in
                let mount = try scratch.mount(options: Self.views)
                let cache = scratch.path + "/xdg-cache"
                // The thumbnails first (as browsing or `assetfs warm` makes them), so that what
                // follows must render nothing and open no photo at all.
                let warm = Command.bash(#"cat "$1"/thumbnails/*/*.jpg >/dev/null"#, [mount.point])
                #expect(warm.status == 0, "\(warm.err)")
                let warmed = try mount.stats()
                #expect(warmed.renders == Self.library.assetCount, "\(warmed)")

                Self.waitForDates(mount, assets: Self.library.assetCount)
                Self.waitForIDs(mount, assets: Self.library.assetCount)
                let opens = try SourceOpens(watching: scratch.sourceBytes)
                let seed = AssetFS.run(["thumbnails", "--source", mount.point], environment: Self.environment(cache: cache))
                // And in dates/, each asset's thumbnail.jpg, fullscreen.jpg and original.jpg again.
                let seeded = (0..<Self.library.albums.count).flatMap { Self.files(of: $0, mount: mount.bytes, source: scratch.sourceBytes) }.count
                    + 3 * Self.library.assetCount
                #expect(seed.status == 0, "\(seed.out) \(seed.err)")
                #expect(seed.out.hasPrefix("thumbnails: wrote \(seeded), already valid 0, no picture 0, failed 0"), "\(seed.out)")
                let afterSeeding = try mount.stats()
                #expect(afterSeeding.renders == warmed.renders && afterSeeding.cacheMisses == warmed.cacheMisses && afterSeeding.renderFailures == 0,
                        "seeding rendered: before \(warmed), after \(afterSeeding)")
                #expect(opens.photoEvents() == [], "seeding opened or read photos in SOURCE (an original)")

                // A file manager listing the album (and the thumbnails view) through GLib: valid
                // thumbnails for every file in it; nothing rendered, no photo opened.
                let album = Self.library.albums[0]
                // (Names may hold newlines, so the output is counted rather than split into lines.)
                for (folder, files) in [(mount.groups / album.name, 1), (mount.bytes / "thumbnails" / album.name, album.assets.count)] {
                    let listed = Command.bash("""
                        export XDG_CACHE_HOME="$2" HOME="$2/home"
                        gio list -a 'standard::*,thumbnail::*,time::*,unix::*' -- "$1"
                        """, [String(decoding: folder, as: UTF8.self), cache])
                    #expect(listed.status == 0, "\(listed.err)")
                    #expect(listed.out.components(separatedBy: "(regular)").count - 1 == files, "\(listed.out)")
                    #expect(listed.out.components(separatedBy: "thumbnail::is-valid=TRUE").count - 1 == files, "gio list: \(listed.out)")
                }
                expectNothingRendered(try mount.stats(), since: afterSeeding)
                #expect(opens.photoEvents() == [], "listing opened or read photos in SOURCE")

                // Every file of the album, one by one, as `gio info` checks it: a valid thumbnail
                // in large/, named by the MD5 of the URI GLib itself makes for the file. (gio's
                // stat of fullscreen.jpg renders it: that is stat's price, not the seeding's.)
                let albumFiles = Self.files(of: 0, mount: mount.bytes, source: scratch.sourceBytes)
                for (file, info) in zip(albumFiles, Self.gioInfo(albumFiles, cache: cache)) {
                    let name = String(decoding: file, as: UTF8.self)
                    #expect(info.valid == "TRUE", "\(name): \(info)")
                    #expect(info.path == cache + "/thumbnails/large/" + md5(info.uri) + ".png", "\(name): \(info)")
                }

                // Again: everything is still valid, nothing is written.
                let again = AssetFS.run(["thumbnails", "--source", mount.point], environment: Self.environment(cache: cache))
                #expect(again.status == 0 && again.out.hasPrefix("thumbnails: wrote 0, already valid \(seeded), no picture 0, failed 0"), "\(again.out)")
                // The watch does see a photo read: an original, through the mount.
                let original = Command.run("cat", [mount.point + "/groups/Plain/one/original.jpg"])
                #expect(original.status == 0 && !opens.photoEvents().isEmpty, "inotify saw no read of an original")
                opens.stop()
            }
        }

        /// An asset name of 255 bytes (a JPEG named without an extension) has fitted view names,
        /// which the seeding must name as the mount does to give them thumbnails.
        @Test func viewFilesOfLongAssetNamesGetThumbnails() throws {
            let long = String(repeating: "y", count: 255)
            let library = Library(sourceName: "Photos", albums: [
                Library.Album(name: Self.b("Long"), assets: [Library.Asset(name: Self.b(long), source: Self.b("Long/" + long), sample: "cameras/Nikon_D5000.jpg")]),
            ])
            try withScratch(library) { scratch in
                let mount = try scratch.mount(options: Self.views)
                let cache = scratch.path + "/xdg-cache"
                let views = try ["thumbnails", "fullscreen"].map { view in
                    try #require(try FileManager.default.contentsOfDirectory(atPath: mount.point + "/\(view)/Long").first).utf8
                }.map { Array($0) }
                #expect(views.allSatisfy { $0.count == 255 && $0 != Self.b(long + ".jpg") }, "view names are fitted")
                Self.waitForDates(mount, assets: 1)
                let seed = AssetFS.run(["thumbnails", mount.point], environment: Self.environment(cache: cache))
                // The poster, the asset folder's three files (in groups/ and dates/) and its two view files.
                #expect(seed.status == 0 && seed.out.hasPrefix("thumbnails: wrote 9, already valid 0, no picture 0, failed 0"), "\(seed.out) \(seed.err)")
                let viewFiles = zip(["thumbnails", "fullscreen"], views).map { mount.bytes / $0.0 / "Long" / $0.1 }
                for (file, info) in zip(viewFiles, Self.gioInfo(viewFiles, cache: cache)) {
                    #expect(info.valid == "TRUE", "\(String(decoding: file, as: UTF8.self)): \(info)")
                }
            }
        }

        /// A video and a Motion Photo: their posters and stills stand for every file of their
        /// asset folders, the video's `original.mp4` and the Motion Photo's `motion.mp4` too (a file
        /// manager would otherwise run a video thumbnailer over the mount), and nothing reads a video.
        @Test func videosAndMotionFilesGetThumbnailsFromTheirPosters() throws {
            let library = Library(sourceName: "Photos", albums: [
                Library.Album(name: Self.b("Phone"), assets: [
                    Library.Asset(name: Self.b("clip"), source: Self.b("Phone/clip.mp4"), sample: "video/Android_gps_3frames.mp4"),
                    Library.Asset(name: Self.b("moving"), source: Self.b("Phone/moving.heic"), sample: "formats/Samsung_S22_irot_motion.heic"),
                ]),
            ])
            try withScratch(library) { scratch in
                let mount = try scratch.mount(options: ["views=dates+videos"])
                let cache = scratch.path + "/xdg-cache"
                let motion = mount.groups / "Phone" / "moving" / "motion.mp4"
                // The motion file appears once the photo's properties are read, in the background.
                let deadline = Date().addingTimeInterval(30)
                while access(String(decoding: motion, as: UTF8.self), F_OK) != 0 && Date() < deadline { usleep(100_000) }
                Self.waitForDates(mount, assets: 2)
                let seed = AssetFS.run(["thumbnails", mount.point], environment: Self.environment(cache: cache))
                // The poster; per asset thumbnail.jpg, fullscreen.jpg, original.* (in groups/ and dates/, the clip's in videos/ too)
                // and two view files; motion.mp4 twice.
                #expect(seed.status == 0 && seed.out.hasPrefix("thumbnails: wrote 22, already valid 0, no picture 0, failed 0"), "\(seed.out) \(seed.err)")
                let stats = try mount.stats()
                #expect(stats.renders == 2, "posters and thumbnails only: \(stats)")
                let files = [mount.groups / "Phone" / "clip" / "original.mp4", mount.groups / "Phone" / "clip" / "thumbnail.jpg",
                             mount.groups / "Phone" / "clip" / "fullscreen.jpg", mount.groups / "Phone" / "moving" / "original.heic", motion]
                for (file, info) in zip(files, Self.gioInfo(files, cache: cache)) {
                    #expect(info.valid == "TRUE" && info.path.hasPrefix(cache + "/thumbnails/large/"), "\(String(decoding: file, as: UTF8.self)): \(info)")
                }
                let text = try String(contentsOfFile: Self.gioInfo([files[0]], cache: cache)[0].path, encoding: .isoLatin1)
                #expect(text.contains("Thumb::Mimetype") && text.contains("video/mp4"), "the original's thumbnail names its type")
            }
        }

        /// `normal` alone: GLib falls back to it (it looks in large/ first), at most 128 px.
        @Test func normalThumbnailsAreValidToo() throws {
            try withScratch(Self.library) { scratch in
                let mount = try scratch.mount(options: Self.views)
                let cache = scratch.path + "/xdg-cache"
                let seed = AssetFS.run(["thumbnails", "--sizes", "normal", mount.point], environment: Self.environment(cache: cache))
                #expect(seed.status == 0, "\(seed.out) \(seed.err)")
                let stats = try mount.stats()
                #expect(stats.renders == Self.library.assetCount, "thumbnails only: \(stats)")
                let files = Self.files(of: 0, mount: mount.bytes, source: nil)
                for (file, info) in zip(files, Self.gioInfo(files, cache: cache)) {
                    #expect(info.valid == "TRUE" && info.path.hasPrefix(cache + "/thumbnails/normal/"), "\(String(decoding: file, as: UTF8.self)): \(info)")
                    if let png = try? Data(contentsOf: URL(fileURLWithPath: info.path)), png.count > 24 {
                        let width = png[16..<20].reduce(0) { $0 << 8 | Int($1) }, height = png[20..<24].reduce(0) { $0 << 8 | Int($1) }
                        #expect(max(width, height) <= 128 && max(width, height) >= 1, "\(info.path): \(width)x\(height)")
                    }
                }
                #expect(!FileManager.default.fileExists(atPath: cache + "/thumbnails/large"))
            }
        }

        /// A photo assetfs cannot render: its originals (in groups/ and dates/) and source photo get
        /// failure entries where GLib reads them (fail/gnome-thumbnail-factory/, named like
        /// thumbnails); its renditions show the placeholder, so their thumbnails do too. Under -o
        /// broken=error (renditions fail with EIO) every file of the asset gets a failure entry.
        /// Either way the run succeeds, and a second run finds everything done.
        @Test(arguments: [("", 3), ("broken=error", 9)])
        func brokenPhotosGetFailureEntries(option: String, unavailable: Int) throws {
            let library = Library(sourceName: "Photos", albums: [
                Library.Album(name: Self.b("Mixed"), assets: [
                    Library.Asset(name: Self.b("a-good"), source: Self.b("Mixed/a-good.jpg"), sample: "cameras/Casio_EX-S1.jpg"),
                    Library.Asset(name: Self.b("broken"), source: Self.b("Mixed/broken.jpg"), sample: "malformed/missing-sos.jpg"),
                ]),
            ])
            try withScratch(library) { scratch in
                let mount = try scratch.mount(options: Self.views + (option.isEmpty ? [] : [option]))
                let cache = scratch.path + "/xdg-cache"
                Self.waitForDates(mount, assets: 2)
                let seed = AssetFS.run(["thumbnails", "--source", mount.point], environment: Self.environment(cache: cache))
                #expect(seed.status == 0, "\(seed.out) \(seed.err)")
                #expect(seed.out.hasPrefix("thumbnails: wrote \(19 - unavailable), already valid 0, no picture \(unavailable), failed 0"), "\(seed.out)")
                for file in [mount.groups / "Mixed" / "broken" / "original.jpg", scratch.sourceBytes / "Mixed" / "broken.jpg"] {
                    let uri = Self.gioInfo([file], cache: cache)[0].uri
                    let entry = cache + "/thumbnails/fail/gnome-thumbnail-factory/" + md5(uri) + ".png"
                    #expect(FileManager.default.fileExists(atPath: entry), "\(uri): no failure entry \(entry)")
                }
                let again = AssetFS.run(["thumbnails", "--source", mount.point], environment: Self.environment(cache: cache))
                #expect(again.out.hasPrefix("thumbnails: wrote 0, already valid \(19 - unavailable), no picture \(unavailable), failed 0"), "\(again.out)")
            }
        }

        @Test func refusesWhatIsNoAssetfsMount() throws {
            try withScratch(.small) { scratch in
                let result = AssetFS.run(["thumbnails", scratch.mountpoint], environment: Self.environment(cache: scratch.path + "/c"))
                #expect(result.status == 2 && result.err.contains("is not an assetfs mount"), "\(result.err)")
                let badSize = AssetFS.run(["thumbnails", "--sizes", "huge", scratch.mountpoint])
                #expect(badSize.status == 2 && badSize.err.contains("unknown size 'huge'"), "\(badSize.err)")
            }
        }
    }
}

private func md5(_ text: String) -> String {
    let result = Command.run("md5sum", [], stdin: Array(text.utf8))
    return String(result.out.prefix(32))
}

private func expectNothingRendered(_ after: MountStats, since before: MountStats, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(after.renders == before.renders && after.cacheMisses == before.cacheMisses && after.renderFailures == before.renderFailures,
            "listing through gio rendered: before \(before), after \(after)", sourceLocation: sourceLocation)
}

/// inotify on every folder of SOURCE: whether anyone opened or read a photo there (the daemon
/// reading an original, or rendering).
final class SourceOpens {
    private let fd: Int32
    private var stopped = false

    init(watching root: [UInt8]) throws {
        fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { throw HarnessError("inotify_init1: \(String(cString: strerror(errno)))") }
        var folders = [root]
        var index = 0
        while index < folders.count {
            let folder = folders[index]
            index += 1
            let added = RawFiles.withPath(folder) { inotify_add_watch(fd, $0, UInt32(IN_OPEN | IN_ACCESS)) }
            guard added >= 0 else { throw HarnessError("inotify_add_watch: \(String(cString: strerror(errno)))") }
            for name in RawFiles.names(in: folder) ?? [] {
                if case .success(let status) = RawFiles.status(folder / name, followLinks: false), status.st_mode & S_IFMT == S_IFDIR {
                    folders.append(folder / name)
                }
            }
        }
    }

    deinit { stop() }

    func stop() {
        guard !stopped else { return }
        stopped = true
        close(fd)
    }

    /// The names of files (not folders) opened or read since the last call.
    func photoEvents() -> [String] {
        var names: [String] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard count > 0 else { return names }
            var offset = 0
            while offset + 16 <= count {
                let mask = buffer[(offset + 4)..<(offset + 8)].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
                let length = Int(buffer[(offset + 12)..<(offset + 16)].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
                let name = buffer[(offset + 16)..<(offset + 16 + length)].prefix { $0 != 0 }
                if mask & UInt32(IN_ISDIR) == 0 { names.append(String(decoding: name, as: UTF8.self)) }
                offset += 16 + length
            }
        }
    }
}
