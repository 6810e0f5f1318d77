import Catalog
import Glibc
import PhotoSource
import Posix
import RenditionCache
import Renditions
import Synchronization

/// The filesystem without FUSE: names, attributes, listings and bytes of the virtual tree.
/// Requests flow one way: adapter → here → catalog → pipeline (cache hit, or render once) → bytes.
/// Anything that may render completes through a callback, so a render never holds up lookups
/// of things already known.
public final class AssetFileSystem: Sendable {
    public let root: FilePath
    public let options: MountOptions
    public let statistics: Statistics
    public let pipeline: RenditionPipeline
    private let store: RenditionStore?
    private let scanner: PhotoScanner
    private let catalog: Mutex<Catalog>
    private let rootStatus: FileStatus

    public init(source: FilePath, options: MountOptions, store: RenditionStore?, renderer: Renderer, renderThreads: Int) throws(Errno) {
        scanner = PhotoScanner(followSymlinks: options.followSymlinks)
        let library = try scanner.scan(source)
        root = library.root
        rootStatus = try FileStatus(path: root)
        self.options = options
        self.store = store
        statistics = Statistics()
        pipeline = RenditionPipeline(renderer: renderer, store: store, statistics: statistics, renderThreads: renderThreads)
        catalog = Mutex(Catalog(library: library))
    }

    public var currentCatalog: Catalog { catalog.withLock { $0 } }

    // MARK: Names and attributes

    public typealias AttributesCompletion = @Sendable (Result<Attributes, Errno>) -> Void

    public func lookup(parent: UInt64, name: [UInt8], completion: @escaping AttributesCompletion) {
        let tree = currentCatalog
        guard let parentNode = tree.node(forInode: parent) else { return completion(.failure(.notFound)) }
        guard parentNode.isDirectory else { return completion(.failure(.notDirectory)) }
        guard let node = tree.child(of: parentNode, named: name) else { return completion(.failure(.notFound)) }
        attributes(of: node, in: tree, completion: completion)
    }

    public func getattr(_ inode: UInt64, completion: @escaping AttributesCompletion) {
        let tree = currentCatalog
        guard let node = tree.node(forInode: inode) else { return completion(.failure(.notFound)) }
        attributes(of: node, in: tree, completion: completion)
    }

    /// A rendition's size must be exact before anyone reads it, so an unknown one is rendered
    /// first; a known one (or any other node) answers at once.
    private func attributes(of node: Node, in tree: Catalog, completion: @escaping AttributesCompletion) {
        var attributes = plainAttributes(of: node, in: tree)
        guard let request = renditionRequest(for: node, in: tree) else { return completion(.success(attributes)) }
        switch pipeline.knownOutcome(request) {
        case .rendered(let size)?:
            Statistics.bump(statistics.cacheHits)
            attributes.size = Int64(size)
            completion(.success(attributes))
        case .failed?:
            completion(.failure(.io))
        case nil:
            let unsized = attributes
            pipeline.size(request) { result in
                completion(result.map { size in
                    var sized = unsized
                    sized.size = Int64(size)
                    return sized
                }.mapError { _ in Errno.io })
            }
        }
    }

    private func plainAttributes(of node: Node, in tree: Catalog) -> Attributes {
        let inode = tree.inode(of: node)
        switch node {
        case .root, .groups:
            return Attributes(inode: inode, isDirectory: true, permissions: rootStatus.permissions & 0o555, size: 4096,
                              userID: rootStatus.userID, groupID: rootStatus.groupID,
                              modificationNanoseconds: rootStatus.modificationNanoseconds,
                              linkCount: 2 + (node == .root ? 1 : tree.albums.count))
        case .album(let a):
            let owner = tree.albums[a].source.ownership
            return Attributes(inode: inode, isDirectory: true, permissions: owner.permissions, size: 4096,
                              userID: owner.userID, groupID: owner.groupID, modificationNanoseconds: owner.modificationNanoseconds,
                              linkCount: 2 + tree.albums[a].assetNames.count)
        case .asset(let a, let i):
            let owner = tree.photo(album: a, asset: i).ownership
            let readable = owner.permissions & 0o444
            return Attributes(inode: inode, isDirectory: true, permissions: readable | (readable >> 2), size: 4096,
                              userID: owner.userID, groupID: owner.groupID, modificationNanoseconds: owner.modificationNanoseconds,
                              linkCount: 2)
        case .poster(let a):
            return fileAttributes(inode: inode, photo: tree.photo(album: a, asset: 0), size: 0)
        case .file(let a, let i, let kind):
            let photo = tree.photo(album: a, asset: i)
            return fileAttributes(inode: inode, photo: photo, size: kind == .original ? photo.identity.size : 0)
        }
    }

    private func fileAttributes(inode: UInt64, photo: Photo, size: Int64) -> Attributes {
        Attributes(inode: inode, isDirectory: false, permissions: photo.ownership.permissions & 0o444, size: size,
                   userID: photo.ownership.userID, groupID: photo.ownership.groupID,
                   modificationNanoseconds: photo.ownership.modificationNanoseconds, linkCount: 1)
    }

    /// The rendition behind a node, if it is one (the album poster is its first asset's thumbnail).
    private func renditionRequest(for node: Node, in tree: Catalog) -> RenditionRequest? {
        switch node {
        case .poster(let a):
            return RenditionRequest(root: root, photo: tree.photo(album: a, asset: 0), spec: options.thumbnail)
        case .file(let a, let i, .thumbnail):
            return RenditionRequest(root: root, photo: tree.photo(album: a, asset: i), spec: options.thumbnail)
        case .file(let a, let i, .fullscreen):
            return RenditionRequest(root: root, photo: tree.photo(album: a, asset: i), spec: options.fullscreen)
        default:
            return nil
        }
    }

    // MARK: Listing

    /// Names and inode numbers only: listing never renders.
    public func list(_ inode: UInt64) -> Result<[ListingEntry], Errno> {
        let tree = currentCatalog
        guard let node = tree.node(forInode: inode) else { return .failure(.notFound) }
        guard let children = tree.children(of: node) else { return .failure(.notDirectory) }
        return .success(children.map { ListingEntry(name: $0.name, inode: tree.inode(of: $0.node), isDirectory: $0.node.isDirectory) })
    }

    // MARK: Reading

    public func open(_ inode: UInt64, completion: @escaping @Sendable (Result<OpenFile, Errno>) -> Void) {
        let tree = currentCatalog
        guard let node = tree.node(forInode: inode) else { return completion(.failure(.notFound)) }
        if case .file(let a, let i, .original) = node {
            return completion(openOriginal(tree.photo(album: a, asset: i)).map { .original(descriptor: $0.rawValue) })
        }
        guard let request = renditionRequest(for: node, in: tree) else { return completion(.failure(.isDirectory)) }
        // Opening needs the size settled (a broken photo fails here), not the bytes.
        pipeline.size(request) { [pipeline] result in
            if case .success = result { pipeline.markUsed(request) }
            completion(result.map { _ in .rendition(request) }.mapError { _ in .io })
        }
    }

    public func read(_ file: OpenFile, size: Int, offset: Int64, completion: @escaping @Sendable (Result<[UInt8], Errno>) -> Void) {
        switch file {
        case .original(let descriptor):
            do { completion(.success(try FileDescriptor(rawValue: descriptor).read(upTo: size, at: offset))) } catch { completion(.failure(.io)) }
        case .rendition(let request):
            pipeline.read(request, offset: Int(offset), count: size) { completion($0.mapError { _ in .io }) }
        }
    }

    /// A read with no open file behind it (the kernel skips OPEN when told it may): the node is
    /// found by inode, an original is opened just for this read.
    public func read(inode: UInt64, size: Int, offset: Int64, completion: @escaping @Sendable (Result<[UInt8], Errno>) -> Void) {
        let tree = currentCatalog
        guard let node = tree.node(forInode: inode) else { return completion(.failure(.notFound)) }
        if case .file(let a, let i, .original) = node {
            return completion(openOriginal(tree.photo(album: a, asset: i)).flatMap { file in
                defer { file.close() }
                return Result { () throws(Errno) in try file.read(upTo: size, at: offset) }.mapError { _ in .io }
            })
        }
        guard let request = renditionRequest(for: node, in: tree) else { return completion(.failure(.isDirectory)) }
        if offset == 0 { pipeline.markUsed(request) }
        pipeline.read(request, offset: Int(offset), count: size) { completion($0.mapError { _ in .io }) }
    }

    /// The source of an `original.jpg`. A photo gone since the scan is ENOENT; any other failure EIO.
    private func openOriginal(_ photo: Photo) -> Result<FileDescriptor, Errno> {
        let path = root.appending(photo.relativePath)
        return Result { () throws(Errno) in try FileDescriptor.openReadOnly(path) }.mapError { error in
            if error == .notFound { return .notFound }
            Log.warning("\(path): cannot open: \(error)")
            return .io
        }
    }

    public func release(_ file: OpenFile) {
        if case .original(let descriptor) = file { FileDescriptor(rawValue: descriptor).close() }
    }

    // MARK: Extended attributes

    public static let statsAttribute = Array("user.assetfs.stats".utf8)
    public static let sourceAttribute = Array("user.assetfs.source".utf8)

    public func extendedAttributeNames(_ inode: UInt64) -> [[UInt8]] {
        let tree = currentCatalog
        switch tree.node(forInode: inode) {
        case .root?: return [Self.statsAttribute]
        case .asset?: return [Self.sourceAttribute]
        default: return []
        }
    }

    public func extendedAttribute(_ inode: UInt64, name: [UInt8]) -> Result<[UInt8], Errno> {
        let tree = currentCatalog
        switch (tree.node(forInode: inode), name) {
        case (.root?, Self.statsAttribute):
            return .success(Array(statisticsJSON(tree).utf8))
        case (.asset(let a, let i)?, Self.sourceAttribute):
            return .success(tree.photo(album: a, asset: i).relativePath.bytes)
        case (nil, _):
            return .failure(.notFound)
        default:
            return .failure(.noAttribute)
        }
    }

    public func statisticsJSON(_ tree: Catalog? = nil) -> String {
        let tree = tree ?? currentCatalog
        let cacheBytes = (try? store?.statistics().bytes) ?? 0
        let fields: [(String, Int)] = [
            ("albums", tree.albums.count), ("assets", tree.library.photoCount), ("skipped", tree.library.skipped),
            ("renders", statistics.renders.load(ordering: .relaxed)),
            ("render_failures", statistics.renderFailures.load(ordering: .relaxed)),
            ("cache_hits", statistics.cacheHits.load(ordering: .relaxed)),
            ("cache_misses", statistics.cacheMisses.load(ordering: .relaxed)),
            ("cache_bytes", Int(cacheBytes)),
        ]
        return "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }

    // MARK: Changes

    /// Rescans the source and swaps in the new tree; returns what the kernel must forget.
    public func rescan() -> [Invalidation] {
        let library: PhotoLibrary
        do { library = try scanner.scan(root) } catch {
            Log.warning("\(root): rescan failed: \(error)")
            return []
        }
        let fresh = Catalog(library: library)
        let old = catalog.withLock { current in
            defer { current = fresh }
            return current
        }
        return Invalidation.between(old, fresh)
    }
}
