import Catalog
import MountModel
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

    /// Whether `key` names a rendition this build would still make for a photo in `catalog`: the
    /// photo is there with that identity, and the renderer's fingerprint is this one. Anything else
    /// can never be asked for again (`assetfs cache prune` forgets it).
    public static func isCurrent(_ key: CacheKey, in catalog: CatalogStore, fingerprint: String = Renderer.fingerprint) -> Bool {
        guard let zero = key.bytes.firstIndex(of: 0) else { return false }
        let fields = key.bytes[(zero + 1)...].split(separator: UInt8(ascii: ":")).map { String(decoding: $0, as: UTF8.self) }
        guard fields.count == 7, fields[6] == fingerprint,
              let photo = catalog.photo(at: FilePath(bytes: Array(key.bytes[..<zero]))) else { return false }
        return fields[0..<4].joined(separator: ":") == photo.photo.identity.text
    }
}
