import Catalog
import Renditions

/// What a mount shows, beyond the source tree itself.
public struct MountOptions: Sendable, Equatable {
    /// thumbnail.jpg, fullscreen.jpg and any size named with `-o sizes=`.
    public var sizes = RenditionSizes()
    public var quality = RenditionSpec.defaultQuality
    public var followSymlinks = false
    /// Show NAS and OS housekeeping folders (`@eaDir`, `#recycle`, ...) as albums too.
    public var showsHousekeeping = false
    public var brokenPhotos = BrokenPhotos.placeholder
    /// The views shown at the top beside `groups/` (`-o views=`; all by default).
    public var views = Set(CatalogView.allCases)

    /// What a rendition of a photo that cannot be rendered shows.
    public enum BrokenPhotos: String, Sendable, CaseIterable {
        /// A small neutral picture, so listings and copies of the album go through (the reason is
        /// in the asset's `user.assetfs.error`).
        case placeholder
        /// EIO, as a plain read error.
        case error
    }

    public init() {}

    /// What the renderer makes for `size`.
    public func spec(_ size: RenditionSize) -> RenditionSpec { size.spec(quality: quality) }
    /// Every size's spec, in the order of the sizes.
    public var specs: [RenditionSpec] { sizes.map(spec) }
}
