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
    /// How every message about it names the photo: its path inside SOURCE, never SOURCE's own
    /// place, since the reasons reach other users (`user.assetfs.error` under `allow_other`, Samba).
    public var displayName: String { photo.relativePath.description }
    /// The source's relative path and identity (inode, size, mtime, ctime) + the spec + the
    /// renderer's fingerprint: a changed photo, spec or renderer never meets an old rendition.
    public let key: CacheKey

    public init(photo: Photo, spec: RenditionSpec, fingerprint: String = Renderer.fingerprint) {
        self.photo = photo
        self.spec = spec
        key = KeyFields(identity: photo.identity.text, spec: spec, fingerprint: fingerprint).key(for: photo.relativePath)
    }

    /// Whether `key` names a rendition this build would still make for a photo in `catalog`: the
    /// photo is there with that identity, renditions are made from it (not an original paired
    /// with an edit: `renditionSource(of:)`), and the renderer's fingerprint is this one. Anything
    /// else can never be asked for again (`assetfs cache prune` forgets it).
    public static func isCurrent(_ key: CacheKey, in catalog: borrowing CatalogSnapshot, fingerprint: String = Renderer.fingerprint) -> Bool {
        guard let (path, fields) = KeyFields.parse(key), fields.fingerprint == fingerprint, let row = catalog.photo(at: path) else { return false }
        return fields.identity == row.photo.identity.text && catalog.renditionSource(of: row).relativePath == row.photo.relativePath
    }
}

/// What a cache key is made of, written and read here only: the source's relative path, a 0
/// byte, then `inode:size:mtime:ctime:longest side:quality:fingerprint`.
struct KeyFields: Equatable {
    /// `SourceIdentity.text`: its four fields.
    var identity: String
    var spec: RenditionSpec
    var fingerprint: String

    private static let identityFieldCount = 4

    func key(for path: FilePath) -> CacheKey {
        CacheKey(path.bytes + [0] + Array("\(identity):\(spec.longestSide):\(spec.quality):\(fingerprint)".utf8))
    }

    /// The path and fields of `key`; nil for a key not made by `key(for:)`.
    static func parse(_ key: CacheKey) -> (path: FilePath, fields: KeyFields)? {
        guard let zero = key.bytes.firstIndex(of: 0) else { return nil }
        let fields = key.bytes[(zero + 1)...].split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        let n = identityFieldCount
        guard fields.count == n + 3, let side = Int(fields[n]), let quality = Int(fields[n + 1]) else { return nil }
        return (FilePath(bytes: Array(key.bytes[..<zero])),
                KeyFields(identity: fields[..<n].joined(separator: ":"), spec: RenditionSpec(longestSide: side, quality: quality), fingerprint: fields[n + 2]))
    }
}
