import Glibc
import Posix

/// The one way into SOURCE for reading a photo: opened beneath the root (no symbolic link or `..`
/// leads out of it, unless the mount follows symlinks), non-blocking (a FIFO swapped in cannot
/// hold a thread), then checked to be the regular file the catalog scanned. Anything else is
/// "not found" and means the catalog is out of date. The root is opened anew each time, so no
/// descriptor keeps an unplugged disk busy.
public struct SourceFiles: Sendable {
    public let root: FilePath
    public let followSymlinks: Bool

    public init(root: FilePath, followSymlinks: Bool) {
        self.root = root
        self.followSymlinks = followSymlinks
    }

    /// Why a photo could not be opened. Each of these may pass: none says the photo is broken.
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// Gone, or something else is there now (another file, a link out, a FIFO): rescan.
        case changed(String)
        /// The file is there but cannot be opened now (permissions, I/O error, no descriptors).
        case unavailable(Errno)

        public var description: String {
            switch self {
            case .changed(let why): return why
            case .unavailable(let error): return error.description
            }
        }
    }

    /// The content of the sidecar `name` in the folder of `photo` (at most `limit` bytes), nil
    /// when it cannot be opened or is not a regular file: opened as photos are, beneath the root.
    public func sidecar(_ name: [UInt8], of photo: Photo, limit: Int) -> [UInt8]? {
        guard let file = try? openBeneathRoot(photo.relativePath.parent.appending(name)) else { return nil }
        guard let status = try? file.status(), status.isRegularFile, status.size <= Int64(limit) else { return nil }
        // Its own size, not the limit: a buffer of the limit is zeroed for every sidecar read.
        return try? file.read(upTo: Int(status.size), at: 0)
    }

    /// `relative` opened read-only and non-blocking, by the rule every read of SOURCE follows.
    private func openBeneathRoot(_ relative: FilePath) throws(Errno) -> OwnedFileDescriptor {
        if followSymlinks { return try OwnedFileDescriptor.openReadOnly(root.appending(relative), nonBlocking: true) }
        return try OwnedFileDescriptor.openFolder(root).openBeneath(relative)
    }

    /// Opens `photo` read-only, for the caller to own.
    public func open(_ photo: Photo) throws(Failure) -> OwnedFileDescriptor {
        let file: OwnedFileDescriptor
        do {
            file = try openBeneathRoot(photo.relativePath)
        } catch {
            switch error.rawValue {
            case ENOENT, ENOTDIR: throw .changed("no longer there")
            case EXDEV, ELOOP: throw .changed("now leads outside the source folder")
            case ENXIO: throw .changed("no longer a regular file")
            default: throw .unavailable(error)
            }
        }
        let status: FileStatus
        do { status = try file.status() } catch { throw .unavailable(error) }
        guard status.isRegularFile else { throw .changed("no longer a regular file") }
        guard SourceIdentity(status) == photo.identity else { throw .changed("changed since it was scanned") }
        return file
    }
}
