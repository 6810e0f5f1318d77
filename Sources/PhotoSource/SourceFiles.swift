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

    /// Opens `photo` read-only; the caller closes it.
    public func open(_ photo: Photo) throws(Failure) -> FileDescriptor {
        let file: FileDescriptor
        do {
            if followSymlinks {
                file = try FileDescriptor.openReadOnly(root.appending(photo.relativePath), nonBlocking: true)
            } else {
                let folder = try FileDescriptor.openFolder(root)
                defer { folder.close() }
                file = try folder.openBeneath(photo.relativePath)
            }
        } catch {
            switch error.rawValue {
            case ENOENT, ENOTDIR: throw .changed("no longer there")
            case EXDEV, ELOOP: throw .changed("now leads outside the source folder")
            case ENXIO: throw .changed("no longer a regular file")
            default: throw .unavailable(error)
            }
        }
        do {
            let status = try file.status()
            guard status.isRegularFile else { throw Failure.changed("no longer a regular file") }
            guard SourceIdentity(status) == photo.identity else { throw Failure.changed("changed since it was scanned") }
            return file
        } catch let failure as Failure {
            file.close()
            throw failure
        } catch {
            file.close()
            throw .unavailable(error as? Errno ?? .io)
        }
    }
}
