import PhotoSource
import Posix
import RenditionCache
import Renditions

/// One rendition of one source file: what to render and the cache key naming the result.
public struct RenditionRequest: Sendable {
    public let photo: Photo
    public let spec: RenditionSpec
    /// For logs: where the photo is.
    public let sourcePath: FilePath
    /// The source's relative path and identity (inode, size, mtime, ctime) + the spec + the
    /// renderer's fingerprint: a changed photo, spec or renderer never meets an old rendition.
    public let key: CacheKey

    public init(root: FilePath, photo: Photo, spec: RenditionSpec, fingerprint: String = Renderer.fingerprint) {
        self.photo = photo
        self.spec = spec
        sourcePath = root.appending(photo.relativePath)
        key = CacheKey(photo.relativePath.bytes + [0] + Array("\(photo.identity.text):\(spec.longestSide):\(spec.quality):\(fingerprint)".utf8))
    }
}
