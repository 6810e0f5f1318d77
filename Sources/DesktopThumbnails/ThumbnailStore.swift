import Glibc
import Posix

/// The sizes of the Freedesktop Thumbnail Managing Standard (0.9): the folder under
/// `$XDG_CACHE_HOME/thumbnails/` and the box the longest side must fit.
public enum ThumbnailSize: String, CaseIterable, Sendable, Comparable {
    case normal
    case large
    case xLarge = "x-large"
    case xxLarge = "xx-large"

    public var pixels: Int {
        switch self {
        case .normal: 128
        case .large: 256
        case .xLarge: 512
        case .xxLarge: 1024
        }
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.pixels < rhs.pixels }
}

/// A file that gets a thumbnail, with what the standard stores about it and what readers
/// (GLib's `thumbnail::is-valid`, and so GNOME Files) compare against its `stat`.
public struct ThumbnailSubject: Sendable, Equatable {
    /// The file's absolute path, raw bytes, as a file manager reaches it.
    public var path: [UInt8]
    /// Its modification time, whole seconds (`st_mtime`): `Thumb::MTime`.
    public var modificationSeconds: Int64
    /// Its size in bytes (`Thumb::Size`), or nil to leave that optional key out.
    public var size: Int64?
    /// `Thumb::Mimetype`, optional.
    public var mimeType: String?

    public init(path: [UInt8], modificationSeconds: Int64, size: Int64?, mimeType: String? = nil) {
        self.path = path
        self.modificationSeconds = modificationSeconds
        self.size = size
        self.mimeType = mimeType
    }

    /// `Thumb::URI`: the `file://` URI of `path` as GLib writes it.
    public var uri: String { FileURI.uri(ofAbsolutePath: path) }

    /// The thumbnail's file name: the MD5 of the URI, lower-case hex, and `.png`.
    public var thumbnailName: String { MD5.hex(Array(uri.utf8)) + ".png" }

    /// The keys a thumbnail of this file carries (the required URI and MTime, then the optional ones).
    public func textChunks(software: String?) -> [(keyword: String, value: String)] {
        var chunks: [(keyword: String, value: String)] = [("Thumb::URI", uri), ("Thumb::MTime", String(modificationSeconds))]
        if let size { chunks.append(("Thumb::Size", String(size))) }
        if let mimeType { chunks.append(("Thumb::Mimetype", mimeType)) }
        if let software { chunks.append(("Software", software)) }
        return chunks
    }
}

/// One user's thumbnail folder, `$XDG_CACHE_HOME/thumbnails`: where each size and each failure
/// goes, whether a thumbnail there is still valid, and atomic writes (a temporary file in the
/// same folder, then `rename`), folders `0700` and files `0600` as the standard asks.
public struct ThumbnailStore: Sendable {
    public let root: FilePath
    /// `fail/<application>-<version>/`: `glibFailureFolder` for entries file managers heed.
    public let failureFolder: String
    /// The failure folder GLib (so GNOME Files, Nemo, Thunar's GIO side) reads `thumbnail::failed`
    /// from: the only one a file manager checks before trying a thumbnailer itself.
    public static let glibFailureFolder = "gnome-thumbnail-factory"
    /// The `Software` key written into every thumbnail.
    public let software: String?

    public init(root: FilePath, failureFolder: String, software: String?) {
        self.root = root
        self.failureFolder = failureFolder
        self.software = software
    }

    /// `$XDG_CACHE_HOME/thumbnails`, else `$HOME/.cache/thumbnails`, as `g_get_user_cache_dir`
    /// picks it (an empty variable counts as unset); nil when neither is set.
    public static func defaultRoot(environment: [String: String]) -> FilePath? {
        if let cache = environment["XDG_CACHE_HOME"], !cache.isEmpty { return FilePath(cache).appending(Array("thumbnails".utf8)) }
        if let home = environment["HOME"], !home.isEmpty { return FilePath(home).appending(Array(".cache/thumbnails".utf8)) }
        return nil
    }

    public func folder(_ size: ThumbnailSize) -> FilePath { root.appending(Array(size.rawValue.utf8)) }
    public var failures: FilePath { root.appending(Array("fail".utf8)).appending(Array(failureFolder.utf8)) }

    public func path(of subject: ThumbnailSubject, size: ThumbnailSize) -> FilePath {
        folder(size).appending(Array(subject.thumbnailName.utf8))
    }

    public func failurePath(of subject: ThumbnailSubject) -> FilePath { failures.appending(Array(subject.thumbnailName.utf8)) }

    /// Whether the thumbnail at `path` is a well-formed PNG whose URI, MTime and Size keys are the
    /// subject's (a Size only where the subject has one): what GLib checks, and a little stricter.
    public func isCurrent(_ path: FilePath, for subject: ThumbnailSubject) -> Bool {
        guard let bytes = try? Self.contents(of: path), let text = PNG.textChunks(in: bytes) else { return false }
        return text["Thumb::URI"] == subject.uri && text["Thumb::MTime"] == String(subject.modificationSeconds)
            && text["Thumb::Size"] == subject.size.map { String($0) }
    }

    /// Writes a thumbnail of `subject`: `pixels` (`channels` 1 or 3) at most `size.pixels` on the
    /// longest side. Removes a failure of ours recorded for it.
    public func store(_ subject: ThumbnailSubject, size: ThumbnailSize, pixels: [UInt8], width: Int, height: Int,
                      channels: Int) throws(StoreError) {
        let png: [UInt8]
        do { png = try PNG.encode(pixels: pixels, width: width, height: height, channels: channels, text: subject.textChunks(software: software)) }
        catch { throw StoreError(path: path(of: subject, size: size), reason: error.description) }
        try writeAtomically(png, to: path(of: subject, size: size))
        _ = failurePath(of: subject).withCString { unlink($0) }
    }

    /// Records that no thumbnail of `subject` can be made: an empty (1×1) PNG with its URI and
    /// MTime under `fail/<application>-<version>/`, as the standard asks.
    public func storeFailure(_ subject: ThumbnailSubject) throws(StoreError) {
        let png: [UInt8]
        do { png = try PNG.encode(pixels: [0], width: 1, height: 1, channels: 1, text: subject.textChunks(software: software)) }
        catch { throw StoreError(path: failurePath(of: subject), reason: error.description) }
        try writeAtomically(png, to: failurePath(of: subject))
    }

    public struct StoreError: Error, CustomStringConvertible, Sendable {
        public var path: FilePath
        public var reason: String
        public var description: String { "\(path): \(reason)" }
    }

    /// `bytes` into a new `0600` file beside `path` (mkstemp), then renamed over `path`: a reader
    /// sees the old thumbnail or the whole new one. Missing folders are made `0700`.
    func writeAtomically(_ bytes: [UInt8], to path: FilePath) throws(StoreError) {
        let folder = FilePath(bytes: Array(path.bytes[..<(path.bytes.lastIndex(of: UInt8(ascii: "/")) ?? 0)]))
        do { try Directory.create(folder, permissions: 0o700) } catch { throw StoreError(path: folder, reason: "cannot create: \(error)") }
        var template = Array((folder.appending(Array(".\(path.lastComponent.count > 0 ? String(decoding: path.lastComponent, as: UTF8.self) : "thumbnail").XXXXXX".utf8))).bytes) + [0]
        let fd = template.withUnsafeMutableBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { mkstemp($0.baseAddress!) }
        }
        guard fd >= 0 else { throw StoreError(path: folder, reason: "cannot create a temporary file: \(Errno.current)") }
        let temporary = FilePath(bytes: Array(template.dropLast()))
        let file = OwnedFileDescriptor(adopting: fd)
        do {
            try file.writeAll(bytes)
            guard fchmod(fd, 0o600) == 0 else { throw Errno.current }
            try file.close()
        } catch {
            _ = temporary.withCString { unlink($0) }
            throw StoreError(path: temporary, reason: "cannot write: \(error)")
        }
        let renamed = temporary.withCString { from in path.withCString { to in rename(from, to) } }
        guard renamed == 0 else {
            let error = Errno.current
            _ = temporary.withCString { unlink($0) }
            throw StoreError(path: path, reason: "cannot rename the temporary file into place: \(error)")
        }
    }

    static func contents(of path: FilePath) throws(Errno) -> [UInt8] {
        let file = try OwnedFileDescriptor.openReadOnly(path)
        var bytes: [UInt8] = []
        while true {
            let chunk = try file.read(upTo: 1 << 16, at: Int64(bytes.count))
            if chunk.isEmpty { return bytes }
            bytes += chunk
        }
    }
}
