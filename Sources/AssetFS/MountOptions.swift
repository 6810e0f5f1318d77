import Renditions

/// What a mount shows, beyond the source tree itself.
public struct MountOptions: Sendable, Equatable {
    public var thumbnailSize = 256
    public var fullscreenSize = 1920
    public var quality = 85
    public var followSymlinks = false
    /// Show NAS and OS housekeeping folders (`@eaDir`, `#recycle`, ...) as albums too.
    public var showsHousekeeping = false
    public var brokenPhotos = BrokenPhotos.placeholder

    /// What a rendition of a photo that cannot be rendered shows.
    public enum BrokenPhotos: String, Sendable {
        /// A small neutral picture, so listings and copies of the album go through (the reason is
        /// in the asset's `user.assetfs.error`).
        case placeholder
        /// EIO, as a plain read error.
        case error
    }

    public init() {}

    public var thumbnail: RenditionSpec { RenditionSpec(longestSide: thumbnailSize, quality: quality) }
    public var fullscreen: RenditionSpec { RenditionSpec(longestSide: fullscreenSize, quality: quality) }
}
