import Catalog
import MountModel
import PhotoSource
import Posix
import Renditions

/// Reading: an original holds its source open until released, so it reads on the version it
/// opened; a rendition reads from the cache, or from its one render.
extension AssetFileSystem {
    /// An original holds its source open until released, so it reads on the version it opened.
    /// A rendition opened counts as used for the cache's LRU order.
    public func open(_ inode: UInt64, as caller: Credentials, interruption: Interruption.Source? = nil,
                     completion: @escaping @Sendable (Result<OpenFile, Errno>) -> Void) {
        let opening = request { (catalog) -> Result<Opening, Errno> in
            resolve(inode, as: caller, in: catalog).flatMap { node in
                if case .file(_, let kind, _) = node.canonical, !node.isRendition {
                    guard let row = tree.photo(for: node, in: catalog), let source = source(kind, of: row, in: catalog) else { return .failure(.notFound) }
                    return .success(.original(source.row.photo, window: source.window))
                }
                guard let target = describe(node, in: catalog)?.rendition else { return .failure(node.isDirectory ? .isDirectory : .notFound) }
                return .success(.rendition(target))
            }
        }
        switch opening {
        case .failure(let error):
            completion(.failure(error))
        case .success(.original(let photo, let window)):
            completion(openOriginal(photo).map { .original($0, window: window) })
        case .success(.rendition(let target)):
            // Opening needs the content settled (a photo that cannot be read fails here), not the bytes.
            settle(target, as: caller, interruption: interruption) { [pipeline] result in
                if case .success(let settled) = result, let request = settled.request { pipeline.markUsed(request) }
                completion(result.map { .rendition($0.request) }.mapError { RequestFailure($0).errno })
            }
        }
    }

    /// What an open found in the catalog: a source file's bytes to open, or a rendition to settle.
    private enum Opening {
        case original(Photo, window: Range<Int64>)
        case rendition(RenditionTarget)
    }

    public func read(_ file: OpenFile, size: Int, offset: Int64, interruption: Interruption.Source? = nil,
                     completion: @escaping @Sendable (Result<[UInt8], Errno>) -> Void) {
        switch file {
        case .original(let descriptor, let window):
            let start = window.lowerBound + offset
            guard start < window.upperBound else { return completion(.success([])) }
            let count = Int(min(Int64(size), window.upperBound - start))
            completion(Result { () throws(Errno) in try descriptor.read(upTo: count, at: start) }.mapError { _ in RequestFailure.originalUnreadable.errno })
        case .rendition(let request):
            readRendition(request, size: size, offset: offset, interruption: interruption, completion: completion)
        }
    }

    /// Bytes of a settled rendition; nil is the placeholder.
    private func readRendition(_ request: RenditionRequest?, size: Int, offset: Int64, interruption: Interruption.Source?,
                               completion: @escaping @Sendable (Result<[UInt8], Errno>) -> Void) {
        guard let request else { return completion(.success(Self.placeholderSlice(offset: offset, count: size))) }
        pipeline.read(request, offset: Int(offset), count: size, interruption: interruption) { [options] result in
            switch result {
            case .success(let bytes): completion(.success(bytes))
            case .failure(.broken) where options.brokenPhotos == .placeholder:
                completion(.success(Self.placeholderSlice(offset: offset, count: size)))
            case .failure(let failure): completion(.failure(RequestFailure(failure).errno))
            }
        }
    }

    private static func placeholderSlice(offset: Int64, count: Int) -> [UInt8] {
        let bytes = Renderer.placeholder ?? []
        guard offset < bytes.count else { return [] }
        return Array(bytes[Int(offset)..<min(bytes.count, Int(offset) + count)])
    }

    /// The source of an `original.jpg`, if it is still the file that was scanned. A photo gone or
    /// replaced since the scan has its folder read again; any other failure is logged.
    private func openOriginal(_ photo: Photo) -> Result<SharedFileDescriptor, Errno> {
        Result { () throws(SourceFiles.Failure) in SharedFileDescriptor(try sourceFiles.open(photo)) }.mapError { failure in
            switch failure {
            case .changed: checkFolder(photo.relativePath.parent)
            case .unavailable(let error): Log.warning("\(root.appending(photo.relativePath)): cannot open: \(error)")
            }
            return RequestFailure(failure).errno
        }
    }
}
