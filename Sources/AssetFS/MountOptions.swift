import Renditions

/// What a mount shows, beyond the source tree itself.
public struct MountOptions: Sendable, Equatable {
    public var thumbnailSize = 256
    public var fullscreenSize = 1920
    public var quality = 85
    public var followSymlinks = false

    public init() {}

    public var thumbnail: RenditionSpec { RenditionSpec(longestSide: thumbnailSize, quality: quality) }
    public var fullscreen: RenditionSpec { RenditionSpec(longestSide: fullscreenSize, quality: quality) }
}
