import PhotoSource
import Posix
import RenditionCache
import Renditions

/// One rendition of one source file: what to render and the cache key naming the result.
public struct RenditionRequest: Sendable {
    public var source: FilePath
    public var photo: Photo
    public var spec: RenditionSpec

    public init(root: FilePath, photo: Photo, spec: RenditionSpec) {
        self.source = root.appending(photo.relativePath)
        self.photo = photo
        self.spec = spec
    }

    /// The source's identity (relative path, inode, size, mtime in ns) + the spec + the renderer's
    /// version: a changed photo, spec or renderer never meets an old rendition.
    public var key: CacheKey {
        var bytes = photo.relativePath.bytes
        bytes.append(0)
        bytes += Array("\(photo.identity.inode):\(photo.identity.size):\(photo.identity.modificationNanoseconds):\(spec.longestSide):\(spec.quality):v\(rendererVersion)".utf8)
        return CacheKey(bytes)
    }
}
