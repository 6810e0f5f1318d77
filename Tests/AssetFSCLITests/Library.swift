import Foundation
import Glibc

/// A photo folder to build as SOURCE (copies of fixture samples, so tests may change them), and the
/// tree assetfs is expected to show for it, written out by hand.
struct Library {
    struct Asset {
        var name: [UInt8]
        /// The file under SOURCE.
        var source: [UInt8]
        /// The fixture sample it is a copy of (a key of expectations.csv).
        var sample: String
        /// Its `original.*` in the mount: the source's extension unless it is a JPEG.
        var original = "original.jpg"
    }
    struct Album {
        var name: [UInt8]
        var assets: [Asset]
    }

    /// The name of the SOURCE folder itself (it names the album of photos directly in it).
    var sourceName: String
    /// Expected albums, in listing order.
    var albums: [Album]
    /// Files that are there but must not be shown and count as skipped, as (path under SOURCE,
    /// sample, or nil for a text file).
    var extras: [(path: [UInt8], sample: String?)] = []
    /// Files in hidden folders: not shown, and not even looked at (so not counted as skipped).
    var hiddenFolders: [[UInt8]] = []
    /// Symbolic links to make, as (path under SOURCE, target).
    var symlinks: [(path: String, target: String)] = []

    var skipped: Int { extras.count }
    var assetCount: Int { albums.reduce(0) { $0 + $1.assets.count } }
    /// How many different pictures: the copies of one sample are one asset in the views.
    var contentCount: Int { Set(allAssets.map(\.asset.sample)).count }
    var allAssets: [(album: Album, asset: Asset)] { albums.flatMap { album in album.assets.map { (album, $0) } } }

    /// Writes the files into `source` (created).
    func materialize(in source: [UInt8]) throws {
        try RawFiles.makeDirectories(source)
        for (_, asset) in allAssets { try put(try TestData.contents(asset.sample), at: source / asset.source) }
        for extra in extras { try put(try extra.sample.map(TestData.contents) ?? Array("not a photo\n".utf8), at: source / extra.path) }
        for hidden in hiddenFolders { try put(try TestData.contents("cameras/Casio_EX-S1.jpg"), at: source / hidden) }
        for link in symlinks where symlink(link.target, (source / link.path).text) != 0 {
            throw POSIXError(errno, "symlink", source / link.path)
        }
    }

    private func put(_ contents: [UInt8], at path: [UInt8]) throws {
        if let slash = path.lastIndex(of: 0x2F) { try RawFiles.makeDirectories(Array(path[..<slash])) }
        try RawFiles.write(contents, to: path)
    }

    /// Every path `find MOUNT` must print, MOUNT itself included.
    func expectedPaths(mount: [UInt8]) -> Set<[UInt8]> {
        // The views are filled in the background as properties are read: `findArguments` leaves their inside out;
        // ids/ lists nothing.
        var paths: Set<[UInt8]> = Set([mount, mount / "groups", mount / "thumbnails", mount / "fullscreen", mount / "ids"] + Self.views.map { mount / $0 })
        for album in albums {
            let folder = mount / "groups" / album.name
            paths.insert(folder)
            paths.insert(folder / "thumbnail.jpg")
            for asset in album.assets {
                paths.insert(folder / asset.name)
                for file in ["thumbnail.jpg", "fullscreen.jpg", asset.original] { paths.insert(folder / asset.name / file) }
            }
            // The size views: the same files, one size each.
            for view in ["thumbnails", "fullscreen"] {
                paths.insert(mount / view / album.name)
                for asset in album.assets { paths.insert(mount / view / album.name / (asset.name + Array(".jpg".utf8))) }
            }
        }
        return paths
    }

    /// The views' top folders (MountLayout.viewName of every CatalogView).
    static let views = ["dates", "events", "places", "people", "tags", "favorites", "videos"]

    /// `find MOUNT … -print0` without what is inside the views (PropertiesTests and ViewsMountTests check that).
    static func findArguments(_ point: String, _ tests: [String] = []) -> [String] {
        [point, "(", "-path", point + "/dates/*"] + views.dropFirst().flatMap { ["-o", "-path", point + "/\($0)/*"] } + [")", "-prune", "-o"]
            + tests + ["-print0"]
    }

    /// Every rendition file in the mount (posters included) with the sample it shows and its kind.
    func renditions(mount: [UInt8]) -> [(path: [UInt8], sample: String, fullscreen: Bool)] {
        albums.flatMap { album in
            let folder = mount / "groups" / album.name
            return [(folder / "thumbnail.jpg", album.assets[0].sample, false)] + album.assets.flatMap { asset in
                [(folder / asset.name / "thumbnail.jpg", asset.sample, false), (folder / asset.name / "fullscreen.jpg", asset.sample, true)]
            }
        }
    }

    /// Every thumbnail (posters included).
    func thumbnails(mount: [UInt8]) -> [[UInt8]] { renditions(mount: mount).filter { !$0.fullscreen }.map(\.path) }

    func assetFolder(mount: [UInt8], album: Int, asset: Int) -> [UInt8] {
        mount / "groups" / albums[album].name / albums[album].assets[asset].name
    }
}

private func b(_ text: String) -> [UInt8] { Array(text.utf8) }
private func asset(_ name: String, _ source: String, _ sample: String) -> Library.Asset {
    Library.Asset(name: b(name), source: b(source), sample: sample)
}

extension Library {
    /// Naming in all its corners: root photos, a nested folder, an album name collision with the
    /// SOURCE folder's name, asset name clashes, odd names, and files that are not shown.
    static var naming: Library {
        let invalidUTF8: [UInt8] = b("bad") + [0xFF, 0xFE]
        return Library(sourceName: "Pictures", albums: [
            // The photos directly in SOURCE: an album named after SOURCE's folder. Order is bytewise.
            Album(name: b("Pictures"), assets: [
                asset("Landscape_6", "Landscape_6.jpg", "orientation/Landscape_6.jpg"),
                asset("Portrait_8", "Portrait_8.jpg", "orientation/Portrait_8.jpg"),
                // Other still formats by content: a PNG, and a PNG named .jpg (its original keeps .jpg).
                Asset(name: b("diagram"), source: b("diagram.png"), sample: "formats/basi6a08.png", original: "original.png"),
                Asset(name: b("fake"), source: b("fake.jpg"), sample: "malformed/png_named_jpg.jpg", original: "original.jpg"),
            ]),
            Album(name: b("2023／Trip"), assets: [
                asset("Samsung", "2023/Trip/Samsung.jpg", "cameras/Samsung_GT-I9000_Galaxy_S.jpg"),
                asset("Sony", "2023/Trip/Sony.jpg", "cameras/Sony_Cybershot_3.jpg"),
            ]),
            Album(name: b("Odd"), assets: [
                asset("-dash", "Odd/-dash.jpg", "malformed/size_1x1.jpg"),
                asset("UPPER", "Odd/UPPER.JPG", "malformed/size_1x1.jpg"),                  // any case of extension
                Asset(name: invalidUTF8, source: b("Odd/") + invalidUTF8 + b(".jpg"), sample: "malformed/grayscale.jpg"),
                asset("new\nline", "Odd/new\nline.jpg", "malformed/restarts.jpg"),
                asset("noext", "Odd/noext", "malformed/grayscale.jpg"),                     // JPEG by content, no extension
                asset("quote\"s'", "Odd/quote\"s'.jpg", "malformed/cmyk_adobe.jpg"),
                asset("with space", "Odd/with space.jpg", "malformed/progressive_small.jpg"),
            ]),
            // SOURCE/Pictures collides with the root album's name.
            Album(name: b("Pictures (2)"), assets: [
                asset("IMG.jpeg", "Pictures/IMG.jpeg", "cameras/Canon_EOS_7D.jpg"),
                asset("IMG.jpg", "Pictures/IMG.jpg", "cameras/Casio_EX-S1.jpg"),
                // Its stem would be the album poster's name.
                asset("thumbnail.jpg.jpg", "Pictures/thumbnail.jpg.jpg", "malformed/grayscale_long_1x1000.jpg"),
            ]),
        ], extras: [
            (b(".x.jpg"), "cameras/Casio_EX-S1.jpg"),            // hidden: skipped
            (b("Empty/notes.txt"), nil),                         // not JPEG: skipped; Empty is no album
        ], hiddenFolders: [b(".thumbnails/cache.jpg")])
    }

    /// Three ordinary photos in two albums: small and quick to render.
    static var small: Library {
        Library(sourceName: "Photos", albums: [
            Album(name: b("Family"), assets: [asset("baby", "Family/baby.jpg", "cameras/Samsung_GT-I9000_Galaxy_S.jpg")]),
            Album(name: b("Holiday"), assets: [
                asset("beach", "Holiday/beach.jpg", "cameras/Casio_EX-S1.jpg"),
                asset("hills", "Holiday/hills.jpg", "cameras/Nikon_D5000.jpg"),
            ]),
        ])
    }
}
