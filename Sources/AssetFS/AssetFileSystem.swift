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
    private let cache: CacheConnection
    private let scanner: PhotoScanner
    private let sourceFiles: SourceFiles
    private let catalogs: Mutex<Catalogs>
    private let rootStatus: FileStatus
    private let online = Atomic<Bool>(true)
    /// Asks the watcher to check the source soon (set once the watcher exists).
    private let checkSource = Hook()

    /// The current tree, and the one before it: a reader that opened a file of the old tree keeps
    /// reading that version by its inode number (renditions of it stay in the cache).
    private struct Catalogs {
        var current: Catalog
        var previous: Catalog?
    }

    public init(source: FilePath, options: MountOptions, cache: CacheConnection, renderer: any RenditionMaking,
                renderThreads: Int) throws(Errno) {
        scanner = PhotoScanner(followSymlinks: options.followSymlinks)
        let library = try scanner.scan(source)
        root = library.root
        rootStatus = try FileStatus(path: root)
        self.options = options
        self.cache = cache
        statistics = Statistics()
        sourceFiles = SourceFiles(root: root, followSymlinks: options.followSymlinks)
        let checkSource = self.checkSource
        pipeline = RenditionPipeline(renderer: renderer, sourceFiles: sourceFiles, cache: cache, statistics: statistics,
                                     renderThreads: renderThreads, onSourceChanged: { checkSource() })
        catalogs = Mutex(Catalogs(current: Catalog(library: library)))
    }

    public var currentCatalog: Catalog { catalogs.withLock { $0.current } }

    /// Whether SOURCE is there (false while its disk is unplugged or it was moved away).
    public var isSourceOnline: Bool { online.load(ordering: .relaxed) }

    /// Who to ask for a check of the source when a photo is not what the catalog says.
    public func whenSourceLooksChanged(_ action: @escaping @Sendable () -> Void) { checkSource.set(action) }

    /// Stops rendering and writes what is pending: call before the FUSE session goes.
    public func shutdown() { pipeline.shutdown() }

    /// The node behind an inode number: in the current tree, else a file of the previous tree
    /// (a version of a photo that has changed since), with the tree it belongs to.
    private func resolve(_ inode: UInt64) -> (node: Node, tree: Catalog)? {
        let trees = catalogs.withLock { $0 }
        if let node = trees.current.node(forInode: inode) { return (node, trees.current) }
        if let previous = trees.previous, let node = previous.node(forInode: inode), !node.isDirectory { return (node, previous) }
        return nil
    }

    // MARK: Names and attributes

    public typealias AttributesCompletion = @Sendable (Result<Attributes, Errno>) -> Void

    public func lookup(parent: UInt64, name: [UInt8], completion: @escaping AttributesCompletion) {
        let tree = currentCatalog
        guard let parentNode = tree.node(forInode: parent) else { return completion(.failure(.notFound)) }
        guard parentNode.isDirectory else { return completion(.failure(.notDirectory)) }
        guard let node = tree.child(of: parentNode, named: name) else { return completion(.failure(.notFound)) }
        attributes(of: node.canonical, in: tree, completion: completion)
    }

    public func getattr(_ inode: UInt64, completion: @escaping AttributesCompletion) {
        guard let (node, tree) = resolve(inode) else { return completion(.failure(.notFound)) }
        attributes(of: node, in: tree, completion: completion)
    }

    /// A rendition's size must be exact before anyone reads it, so an unknown one is rendered first.
    private func attributes(of node: Node, in tree: Catalog, completion: @escaping AttributesCompletion) {
        let unsized = plainAttributes(of: node, in: tree)
        guard let target = renditionTarget(for: node, in: tree) else { return completion(.success(unsized)) }
        settle(target) { [options] result in
            completion(result.map { settled in
                var sized = unsized
                sized.size = Int64(settled.size)
                return sized
            }.flatMapError { failure in .failure(Self.errno(failure, options)) })
        }
    }

    private func plainAttributes(of node: Node, in tree: Catalog) -> Attributes {
        let inode = tree.inode(of: node)
        switch node {
        case .root, .groups, .view:
            return Attributes(inode: inode, isDirectory: true, permissions: rootStatus.permissions & 0o555, size: 4096,
                              userID: rootStatus.userID, groupID: rootStatus.groupID,
                              modificationNanoseconds: rootStatus.modificationNanoseconds,
                              linkCount: 2 + (node == .root ? 1 + FileKind.viewed.count : tree.albums.count))
        case .viewAlbum(_, let a):
            let owner = tree.albums[a].source.ownership
            return Attributes(inode: inode, isDirectory: true, permissions: owner.permissions, size: 4096,
                              userID: owner.userID, groupID: owner.groupID, modificationNanoseconds: owner.modificationNanoseconds,
                              linkCount: 2)
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
            return fileAttributes(inode: inode, photo: tree.photo(album: a, asset: 0), size: 0, names: 1)
        case .file(let a, let i, let kind), .viewFile(let kind, let a, let i):
            let photo = tree.photo(album: a, asset: i)
            // A size with a view has two names: in its asset folder and in the view.
            return fileAttributes(inode: inode, photo: photo, size: kind == .original ? photo.identity.size : 0,
                                  names: FileKind.viewed.contains(kind) ? 2 : 1)
        }
    }

    private func fileAttributes(inode: UInt64, photo: Photo, size: Int64, names: Int) -> Attributes {
        Attributes(inode: inode, isDirectory: false, permissions: photo.ownership.permissions & 0o444, size: size,
                   userID: photo.ownership.userID, groupID: photo.ownership.groupID,
                   modificationNanoseconds: photo.ownership.modificationNanoseconds, linkCount: names)
    }

    // MARK: Renditions

    /// What a rendition node shows: one photo's rendition, or for an album poster the thumbnail
    /// of the first of its photos that renders.
    private enum RenditionTarget {
        case one(RenditionRequest)
        case firstRendering([RenditionRequest])
    }

    private func renditionTarget(for node: Node, in tree: Catalog) -> RenditionTarget? {
        switch node.canonical {
        case .poster(let a):
            return .firstRendering(tree.albums[a].source.photos.map { RenditionRequest(root: root, photo: $0, spec: options.thumbnail) })
        case .file(let a, let i, .thumbnail):
            return .one(RenditionRequest(root: root, photo: tree.photo(album: a, asset: i), spec: options.thumbnail))
        case .file(let a, let i, .fullscreen):
            return .one(RenditionRequest(root: root, photo: tree.photo(album: a, asset: i), spec: options.fullscreen))
        default:
            return nil
        }
    }

    /// A target's settled content: the request whose rendition it shows and its size, or (every
    /// candidate broken) the placeholder's, or why there is nothing to show now.
    private struct Settled: Sendable {
        var request: RenditionRequest?
        var size: Int
    }

    private func settle(_ target: RenditionTarget, completion: @escaping @Sendable (Result<Settled, RenditionFailure>) -> Void) {
        switch target {
        case .one(let request):
            pipeline.size(request) { [self] result in
                switch result {
                case .success(let size): completion(.success(Settled(request: request, size: size)))
                case .failure(.broken(let reason)): completion(placeholder(for: reason))
                case .failure(let failure): completion(.failure(failure))
                }
            }
        case .firstRendering(let candidates):
            settleFirst(candidates[...], brokenReason: nil, completion: completion)
        }
    }

    /// Tries candidates in order; a broken one is passed over, any other failure stops the search
    /// (so the choice never depends on a passing error, and the poster's size stays stable).
    private func settleFirst(_ candidates: ArraySlice<RenditionRequest>, brokenReason: String?,
                             completion: @escaping @Sendable (Result<Settled, RenditionFailure>) -> Void) {
        guard let request = candidates.first else { return completion(placeholder(for: brokenReason ?? "no photos")) }
        pipeline.size(request) { [self] result in
            switch result {
            case .success(let size): completion(.success(Settled(request: request, size: size)))
            case .failure(.broken(let reason)): settleFirst(candidates.dropFirst(), brokenReason: reason, completion: completion)
            case .failure(let failure): completion(.failure(failure))
            }
        }
    }

    /// What a broken photo shows: the placeholder, unless `-o broken=error`.
    private func placeholder(for reason: String) -> Result<Settled, RenditionFailure> {
        guard options.brokenPhotos == .placeholder, let bytes = Renderer.placeholder else { return .failure(.broken(reason: reason)) }
        return .success(Settled(request: nil, size: bytes.count))
    }

    private static func errno(_ failure: RenditionFailure, _ options: MountOptions) -> Errno {
        switch failure {
        case .broken: return .io
        case .unavailable(let error, _): return error == .notFound ? .notFound : .io
        }
    }

    /// The inode of the folder holding folder `inode` (the root's is the root): what `..` is.
    public func parent(of inode: UInt64) -> Result<UInt64, Errno> {
        let tree = currentCatalog
        guard let node = tree.node(forInode: inode) else { return .failure(.notFound) }
        guard let parent = tree.parent(of: node) else { return .failure(.notDirectory) }
        return .success(tree.inode(of: parent))
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
        guard let (node, tree) = resolve(inode) else { return completion(.failure(.notFound)) }
        if case .file(let a, let i, .original) = node {
            return completion(openOriginal(tree.photo(album: a, asset: i)).map { .original($0) })
        }
        guard let target = renditionTarget(for: node, in: tree) else { return completion(.failure(.isDirectory)) }
        // Opening needs the content settled (a photo that cannot be read fails here), not the bytes.
        settle(target) { [pipeline, options] result in
            if case .success(let settled) = result, let request = settled.request { pipeline.markUsed(request) }
            completion(result.map { .rendition($0.request) }.mapError { Self.errno($0, options) })
        }
    }

    public func read(_ file: OpenFile, size: Int, offset: Int64, completion: @escaping @Sendable (Result<[UInt8], Errno>) -> Void) {
        switch file {
        case .original(let descriptor):
            completion(Result { () throws(Errno) in try descriptor.read(upTo: size, at: offset) }.mapError { _ in .io })
        case .rendition(let request):
            readRendition(request, size: size, offset: offset, completion: completion)
        }
    }

    /// A read with no open file behind it (the kernel skips OPEN when told it may): the node is
    /// found by inode, an original is opened just for this read.
    public func read(inode: UInt64, size: Int, offset: Int64, completion: @escaping @Sendable (Result<[UInt8], Errno>) -> Void) {
        guard let (node, tree) = resolve(inode) else { return completion(.failure(.notFound)) }
        if case .file(let a, let i, .original) = node {
            return completion(openOriginal(tree.photo(album: a, asset: i)).flatMap { file in
                defer { file.close() }
                return Result { () throws(Errno) in try file.read(upTo: size, at: offset) }.mapError { _ in .io }
            })
        }
        guard let target = renditionTarget(for: node, in: tree) else { return completion(.failure(.isDirectory)) }
        settle(target) { [self] result in
            switch result {
            case .success(let settled):
                if offset == 0, let request = settled.request { pipeline.markUsed(request) }
                readRendition(settled.request, size: size, offset: offset, completion: completion)
            case .failure(let failure):
                completion(.failure(Self.errno(failure, options)))
            }
        }
    }

    /// Bytes of a settled rendition; nil is the placeholder.
    private func readRendition(_ request: RenditionRequest?, size: Int, offset: Int64,
                               completion: @escaping @Sendable (Result<[UInt8], Errno>) -> Void) {
        guard let request else { return completion(.success(Self.placeholderSlice(offset: offset, count: size))) }
        pipeline.read(request, offset: Int(offset), count: size) { [options] result in
            switch result {
            case .success(let bytes): completion(.success(bytes))
            case .failure(.broken) where options.brokenPhotos == .placeholder:
                completion(.success(Self.placeholderSlice(offset: offset, count: size)))
            case .failure(let failure): completion(.failure(Self.errno(failure, options)))
            }
        }
    }

    private static func placeholderSlice(offset: Int64, count: Int) -> [UInt8] {
        let bytes = Renderer.placeholder ?? []
        guard offset < bytes.count else { return [] }
        return Array(bytes[Int(offset)..<min(bytes.count, Int(offset) + count)])
    }

    /// The source of an `original.jpg`, if it is still the file that was scanned. A photo gone or
    /// replaced since the scan is ENOENT (and the source is checked again); any other failure EIO.
    private func openOriginal(_ photo: Photo) -> Result<FileDescriptor, Errno> {
        Result { () throws(SourceFiles.Failure) in try sourceFiles.open(photo) }.mapError { failure in
            switch failure {
            case .changed:
                checkSource()
                return .notFound
            case .unavailable(let error):
                Log.warning("\(root.appending(photo.relativePath)): cannot open: \(error)")
                return error == .permissionDenied ? .permissionDenied : .io
            }
        }
    }

    public func release(_ file: OpenFile) {
        if case .original(let descriptor) = file { descriptor.close() }
    }

    // MARK: Extended attributes

    public static let statsAttribute = Array("user.assetfs.stats".utf8)
    public static let sourceAttribute = Array("user.assetfs.source".utf8)
    public static let errorAttribute = Array("user.assetfs.error".utf8)

    public func extendedAttributeNames(_ inode: UInt64) -> [[UInt8]] {
        let tree = currentCatalog
        switch tree.node(forInode: inode) {
        case .root?: return [Self.statsAttribute]
        case .asset(let a, let i)?: return [Self.sourceAttribute] + (failure(of: tree.photo(album: a, asset: i)) == nil ? [] : [Self.errorAttribute])
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
        case (.asset(let a, let i)?, Self.errorAttribute):
            return failure(of: tree.photo(album: a, asset: i)).map { .success(Array($0.utf8)) } ?? .failure(.noAttribute)
        case (nil, _):
            return .failure(.notFound)
        default:
            return .failure(.noAttribute)
        }
    }

    /// Why a photo cannot be shown, once a rendition of it has been tried.
    private func failure(of photo: Photo) -> String? {
        [options.thumbnail, options.fullscreen].lazy.compactMap { [self] spec in
            pipeline.knownFailure(RenditionRequest(root: root, photo: photo, spec: spec))
        }.first
    }

    public func statisticsJSON(_ tree: Catalog? = nil) -> String {
        let tree = tree ?? currentCatalog
        let cacheBytes = (try? cache.store?.statistics().bytes) ?? 0
        let fields: [(String, Int)] = [
            ("albums", tree.albums.count), ("assets", tree.library.photoCount), ("skipped", tree.library.skipped),
            ("renders", statistics.renders.load(ordering: .relaxed)),
            ("render_failures", statistics.renderFailures.load(ordering: .relaxed)),
            ("broken", statistics.brokenPhotos.load(ordering: .relaxed)),
            ("cache_hits", statistics.cacheHits.load(ordering: .relaxed)),
            ("cache_misses", statistics.cacheMisses.load(ordering: .relaxed)),
            ("cache_bytes", Int(cacheBytes)),
            ("source_online", isSourceOnline ? 1 : 0),
        ]
        return "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }

    // MARK: Changes

    /// Rescans the source and swaps in the new tree; returns what the kernel must forget. While
    /// SOURCE is away (unplugged, moved, deleted) the last tree stays: cached renditions read on,
    /// the rest fails fast; when a folder is back at its path, it is scanned again.
    public func rescan() -> [Invalidation] {
        let library: PhotoLibrary
        do {
            library = try scanner.scan(root)
            let now = try FileStatus(path: root)
            // An unplugged disk can leave its mountpoint behind, empty, on another device.
            if library.photoCount == 0, now.device != rootStatus.device, currentCatalog.library.photoCount > 0 {
                throw Errno.notFound
            }
        } catch {
            if online.exchange(false, ordering: .relaxed) {
                Log.warning("\(root): SOURCE is gone (\(error)): unplugged, moved or deleted? Cached renditions stay readable; the rest fails until it is back at this path")
            }
            return []
        }
        if !online.exchange(true, ordering: .relaxed) { Log.info("\(root): SOURCE is back; the tree is up to date again") }
        let fresh = Catalog(library: library)
        let old = catalogs.withLock { trees in
            defer { trees = Catalogs(current: fresh, previous: trees.current) }
            return trees.current
        }
        return Invalidation.between(old, fresh)
    }
}

/// An action installed after construction, safe to call from any thread (a no-op until set).
final class Hook: Sendable {
    private let action = Mutex<@Sendable () -> Void>({})
    func set(_ action: @escaping @Sendable () -> Void) { self.action.withLock { $0 = action } }
    func callAsFunction() { action.withLock { $0 }() }
}
