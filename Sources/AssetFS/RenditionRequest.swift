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

    /// `cause` as this photo's reason. What is kept under a key (a failure, a preview's reason)
    /// is the cause alone, since copies share the key and each is told under its own name only.
    public func told(_ cause: String) -> String { "\(displayName): \(cause)" }
    /// What the rendered pixels depend on: the file (by its relative path and identity, or by its
    /// rendition digest when it has copies: they share one rendition) + the spec + the renderer's
    /// fingerprint: a changed photo, spec or renderer never meets an old rendition.
    public let key: CacheKey

    /// `renditionDigest`: the MD5 of the photo's whole file, when the catalog has made one
    /// (`CatalogStore+RenditionDigests.swift`) for the version `photo` is.
    public init(photo: Photo, renditionDigest: [UInt8]? = nil, spec: RenditionSpec, fingerprint: String = Renderer.fingerprint) {
        self.photo = photo
        self.spec = spec
        let subject: KeyFields.Subject = renditionDigest.map { .content(digest: $0, format: photo.format.rawValue) }
            ?? .file(photo.relativePath, identity: photo.identity.text)
        key = KeyFields(subject: subject, spec: spec, fingerprint: fingerprint).key
    }

    /// The rendition of the file catalog row `row` is, at `spec`.
    public init(_ row: CatalogStore.PhotoRow, spec: RenditionSpec) {
        self.init(photo: row.photo, renditionDigest: row.renditionDigest, spec: spec)
    }

    /// Whether `key` names a rendition this build would still make for a photo in `catalog`: the
    /// photo is there with that identity and no digest (a shared key: some photo still has that
    /// digest), renditions are made from it (not an original paired with an edit:
    /// `renditionSource(of:)`), and the renderer's fingerprint is this one. Anything else can never
    /// be asked for again (`assetfs cache prune` forgets it).
    public static func isCurrent(_ key: CacheKey, in catalog: borrowing CatalogSnapshot, fingerprint: String = Renderer.fingerprint) -> Bool {
        guard let fields = KeyFields.parse(key), fields.fingerprint == fingerprint else { return false }
        return photos(of: fields.subject, in: catalog).contains { catalog.renditionSource(of: $0).id == $0.id }
    }

    /// The photos whose rendition `subject` names, as the catalog has them now.
    static func photos(of subject: KeyFields.Subject, in catalog: borrowing CatalogSnapshot) -> [CatalogStore.PhotoRow] {
        switch subject {
        case .file(let path, let identity):
            return catalog.photo(at: path).map { $0.photo.identity.text == identity && $0.renditionDigest == nil ? [$0] : [] } ?? []
        case .content(let digest, let format):
            return catalog.photos(withRenditionDigest: digest).filter { $0.photo.format.rawValue == format }
        }
    }
}

/// What a cache key is made of, written and read here only. A file's: its relative path, a 0
/// byte, then `inode:size:mtime:ctime:longest side:quality:fingerprint`. A shared one: no path
/// (a photo's is never empty), a 0 byte, then `md5:<digest, as a content id is written>:<format>:longest side:quality:fingerprint`.
struct KeyFields: Equatable {
    enum Subject: Equatable {
        /// `SourceIdentity.text` (its four fields) of the file at a relative path.
        case file(FilePath, identity: String)
        /// A file's rendition digest, and the format it is rendered as (a RAW named as a TIFF is a TIFF).
        case content(digest: [UInt8], format: String)
    }

    var subject: Subject
    var spec: RenditionSpec
    var fingerprint: String

    private static let identityFieldCount = 4
    private static let contentMark = "md5"

    /// A digest as a content id is written (base32: 26 letters and digits).
    private static func text(_ digest: [UInt8]) -> String {
        ContentID(digest: digest)?.description ?? ""
    }

    var key: CacheKey {
        let tail = "\(spec.longestSide):\(spec.quality):\(fingerprint)"
        switch subject {
        case .file(let path, let identity):
            return CacheKey(path.bytes + [0] + Array("\(identity):\(tail)".utf8))
        case .content(let digest, let format):
            return CacheKey([0] + Array("\(Self.contentMark):\(Self.text(digest)):\(format):\(tail)".utf8))
        }
    }

    /// The fields of `key`; nil for a key not made by `key`.
    static func parse(_ key: CacheKey) -> KeyFields? {
        guard let zero = key.bytes.firstIndex(of: 0) else { return nil }
        let fields = key.bytes[(zero + 1)...].split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        let head = zero == 0 ? 3 : identityFieldCount
        guard fields.count == head + 3, let side = Int(fields[head]), let quality = Int(fields[head + 1]) else { return nil }
        let subject: Subject
        if zero == 0 {
            guard fields[0] == contentMark, let digest = ContentID(text: fields[1].utf8)?.digest else { return nil }
            subject = .content(digest: digest, format: fields[2])
        } else {
            subject = .file(FilePath(bytes: Array(key.bytes[..<zero])), identity: fields[..<head].joined(separator: ":"))
        }
        return KeyFields(subject: subject, spec: RenditionSpec(longestSide: side, quality: quality), fingerprint: fields[head + 2])
    }
}
