import PhotoSource
import Posix
import RenditionCache
import Renditions

/// One rendition of one source file: what to render and the cache key naming the result.
public struct RenditionRequest: Sendable {
    public let source: FilePath
    public let photo: Photo
    public let spec: RenditionSpec
    /// The source's identity (relative path, inode, size, mtime in ns) + the spec + the renderer's
    /// version: a changed photo, spec or renderer never meets an old rendition.
    public let key: CacheKey

    public init(root: FilePath, photo: Photo, spec: RenditionSpec) {
        self.source = root.appending(photo.relativePath)
        self.photo = photo
        self.spec = spec
        var bytes = photo.relativePath.bytes
        bytes.append(0)
        bytes += Array("\(photo.identity.inode):\(photo.identity.size):\(photo.identity.modificationNanoseconds):\(spec.longestSide):\(spec.quality):v\(rendererVersion)".utf8)
        key = CacheKey(bytes)
    }
}
