import Catalog
import Posix

/// Every name the mount shows, defined once: its top folders, an album's poster, an asset
/// folder's fixed files and the extended attributes. The catalog stores rows and the names it
/// gives them (albums, assets, the views' folders and members); how they are presented is here.
public enum MountLayout {
    public static let groups = Array("groups".utf8)
    public static let ids = Array("ids".utf8)

    /// A view's top folder: `dates`, `events`, `places`, `people`, `tags`, `favorites`, `videos`.
    public static func viewName(_ view: CatalogView) -> String {
        switch view {
        case .dates: "dates"
        case .events: "events"
        case .places: "places"
        case .people: "people"
        case .tags: "tags"
        case .favorites: "favorites"
        case .videos: "videos"
        }
    }

    /// The view whose top folder is called `name`.
    public static func view(named name: [UInt8]) -> CatalogView? {
        CatalogView.allCases.first { Array(viewName($0).utf8) == name }
    }
    /// `groups/<album>/thumbnail.jpg`: an album's poster. No asset is given this name
    /// (`reservedAssetNames`, which the catalog is opened with).
    public static let poster = Array("thumbnail.jpg".utf8)
    public static let reservedAssetNames = [poster]
    /// An asset folder's motion file: a Motion Photo's embedded MP4, or a Live Photo's movie,
    /// which keeps QuickTime's extension as Apple's exports do.
    public static let embeddedMotion = Array("motion.mp4".utf8)
    public static let liveMotion = Array("motion.mov".utf8)
    public static let motionNames = [embeddedMotion, liveMotion]

    /// What a named size may not be called: the fixed files of an asset folder and the top folders.
    public static let reservedSizeNames: Set<String> = Set(["thumbnail", "fullscreen", "thumbnails", "original", "motion", "groups", "ids"] + CatalogView.allCases.map(viewName))

    /// The extended attributes: the mount's statistics on its root, and on each asset folder its
    /// source path, why it is broken, and its properties (`propertyAttribute`).
    public static let statsAttribute = Array("user.assetfs.stats".utf8)
    public static let sourceAttribute = Array("user.assetfs.source".utf8)
    /// On a Live Photo's asset folder: its movie's path in SOURCE (the still's is `source`).
    public static let motionSourceAttribute = Array("user.assetfs.motion_source".utf8)
    /// What the name of an original's `edited.*` file starts with (`Photo.editedFileName`).
    public static let editedPrefix = Array("edited.".utf8)
    /// On an original's asset folder that shows its edit: the edit's path in SOURCE.
    public static let editedAttribute = Array("user.assetfs.edited".utf8)
    /// On an asset folder whose picture has copies elsewhere in SOURCE: their paths in SOURCE, one a line.
    public static let duplicatesAttribute = Array("user.assetfs.duplicates".utf8)
    public static let errorAttribute = Array("user.assetfs.error".utf8)
    /// On the root: the mount's sizes (`RenditionSizes.description`).
    public static let sizesAttribute = Array("user.assetfs.sizes".utf8)
    public static func propertyAttribute(_ name: String) -> [UInt8] { Array("user.assetfs.\(name)".utf8) }

    public static func motionName(_ motion: CatalogStore.Motion) -> [UInt8] {
        switch motion {
        case .embedded: return embeddedMotion
        case .movie: return liveMotion
        }
    }

    /// The motion file's name by the properties alone, if the photo has one.
    public static func motionName(_ properties: CatalogStore.Properties) -> [UInt8]? {
        properties.pairedMovie != nil ? liveMotion : properties.motion != nil ? embeddedMotion : nil
    }

    /// An asset folder's place in the mount: `groups/<album>/<asset>`.
    public static func assetPath(album: [UInt8], asset: [UInt8]) -> FilePath { FilePath(bytes: groups).appending(album).appending(asset) }
    /// Where `ids/<id>` points: its asset folder, relative to `ids/`.
    public static func idLinkTarget(album: [UInt8], asset: [UInt8]) -> [UInt8] { Array("../".utf8) + assetPath(album: album, asset: asset).bytes }

    /// What a size view's file name adds to its asset's name.
    static let viewFileSuffix = Array(".jpg".utf8)

    /// A size view's file for asset `name`: `<asset>.jpg`, fitted like any name (the end, `.jpg`,
    /// is what stays), so an asset name of 252 to 255 bytes still gives a name that fits.
    public static func viewFileName(_ assetName: [UInt8]) -> [UInt8] { Naming.fitted(assetName + viewFileSuffix) }
}
