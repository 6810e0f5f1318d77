import Catalog
import MountModel
import Foundation
import Glibc
import PhotoProperties
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
    /// The catalog's figures in the stats, kept between reads.
    let catalogFigures = CatalogFigures()
    public let pipeline: RenditionPipeline
    let cache: CacheConnection
    private let catalogConnection: OnFirstUse<CatalogStore>
    let sourceFiles: SourceFiles
    /// What other users may reach: every request passes it (`resolve`).
    let access: SourceAccess
    let reader: FolderReader
    let rootStatus: FileStatus
    let online: Atomic<Bool>
    /// Asks for a folder to be read again (set once the watcher exists).
    let checkFolder = Hook<FilePath>()
    /// Where what the kernel must forget goes (set by the adapter serving this tree).
    let kernel = Hook<[Invalidation]>()
    /// The threads of every render, cache write, scan and background pass of this tree.
    let scheduler: Scheduler
    /// Reads photos' properties after each synchronize (once started).
    let background: BackgroundLoop
    /// Changes the catalog could not take yet, tried again until it does.
    let backlog: CatalogBacklog
    /// Which photo each Takeout JSON of the folder last read names (`sidecar(of:)`).
    let takeoutTitles = TakeoutTitles()

    /// `root`: SOURCE's real path (it may be away: a catalog of it is then served as stored).
    /// `catalog` and `cache` are opened on first use, in the process that serves the mount.
    public init(source root: FilePath, options: MountOptions, cache: CacheConnection,
                catalog: @escaping @Sendable () -> CatalogStore, renderer: any RenditionMaking, renderThreads: Int) {
        self.root = root
        let status = try? FileStatus(path: root)
        rootStatus = status ?? FileStatus(device: 0, inode: 0, mode: 0o40555, userID: getuid(), groupID: getgid(), size: 0,
                                          modificationNanoseconds: 0, changeNanoseconds: 0)
        online = Atomic(status?.isDirectory == true)
        self.options = options
        self.cache = cache
        catalogConnection = OnFirstUse {
            let store = catalog()
            Self.readOutdatedPropertiesAgain(store)
            return store
        }
        let catalogConnection = catalogConnection
        backlog = CatalogBacklog { catalogConnection.value.path }
        statistics = Statistics()
        sourceFiles = SourceFiles(root: root, followSymlinks: options.followSymlinks)
        access = SourceAccess(root: root)
        reader = FolderReader(root: root, followSymlinks: options.followSymlinks, showsHousekeeping: options.showsHousekeeping)
        let checkFolder = self.checkFolder
        // As many as the renders or a scan's readers use at once, and one more for the writers.
        scheduler = Scheduler(threads: max(renderThreads, CatalogSynchronizer.readers) + 1, name: "assetfs")
        background = BackgroundLoop(scheduler: scheduler)
        pipeline = RenditionPipeline(renderer: renderer, sourceFiles: sourceFiles, cache: cache, statistics: statistics,
                                     scheduler: scheduler, renderThreads: renderThreads, onSourceChanged: { checkFolder($0.parent) })
    }

    public var catalog: CatalogStore { catalogConnection.value }
    /// The mount's tree over the catalog: every name and inode number a request resolves.
    public var tree: MountTree { MountTree(sizes: options.sizes, views: options.views) }

    /// Whether SOURCE is there (false while its disk is unplugged or it was moved away).
    public var isSourceOnline: Bool { online.load(ordering: .relaxed) }

    /// Who to ask to read a folder again when a photo in it is not what the catalog says.
    public func whenFolderLooksChanged(_ action: @escaping @Sendable (FilePath) -> Void) { checkFolder.set(action) }

    /// Who tells the kernel what a change made stale (the FUSE session serving this tree): every
    /// change of the catalog, from a scan, the watcher or the properties read, ends there.
    public func whenKernelMustForget(_ action: @escaping @Sendable ([Invalidation]) -> Void) { kernel.set(action) }

    /// Stops rendering and writes what is pending, and ends the threads: call before the FUSE session goes.
    public func shutdown() {
        background.stop()
        pipeline.shutdown()
        scheduler.shutdown()
    }

    // MARK: Names and attributes

    public typealias AttributesCompletion = @Sendable (Result<Attributes, Errno>) -> Void

    /// `interruption`, here and below: the request's caller may go before a render it waits for
    /// is made (FUSE INTERRUPT), and then it stops waiting.
    public func lookup(parent: UInt64, name: [UInt8], as caller: Credentials, interruption: Interruption.Source? = nil,
                       completion: @escaping AttributesCompletion) {
        // Only a motion file's presence depends on properties; the other names need none read.
        let found = request(preparing: MountLayout.motionNames.contains(name) ? parent : nil) { catalog in
            resolve(folder: parent, as: caller, in: catalog).flatMap { resolve(child: name, of: $0, as: caller, in: catalog) }
                .flatMap { describing($0.canonical, in: catalog) }
        }
        attributes(found, as: caller, interruption: interruption, completion: completion)
    }

    public func getattr(_ inode: UInt64, as caller: Credentials, interruption: Interruption.Source? = nil, completion: @escaping AttributesCompletion) {
        let found = request { catalog in resolve(inode, as: caller, in: catalog).flatMap { describing($0, in: catalog) } }
        attributes(found, as: caller, interruption: interruption, completion: completion)
    }

    /// The attributes of `inode` when they are known without rendering: a folder's or an
    /// original's; nil for a rendition (its size may need a render) or an unknown inode. What a
    /// listing with attributes (READDIRPLUS) gives, so listing still never renders.
    public func attributesWithoutRendering(_ inode: UInt64, as caller: Credentials, in catalog: borrowing CatalogSnapshot) -> Attributes? {
        // Told from the node alone: a rendition's photo is not even looked up.
        guard let node = Node(inode: inode), !node.isRendition, let node = try? resolve(inode, as: caller, in: catalog).get() else { return nil }
        return describe(node, in: catalog)?.attributes
    }

    /// Runs `body`, the catalog work of one request, on one snapshot of the catalog (its rows
    /// read once, no change applied meanwhile showing in half of it), which it hands on to every
    /// read it makes; a catalog that could not be read answers EIO, never "no such file". An
    /// asset folder `preparing` names (one to be listed, or looked into for a motion file) needs
    /// its photo's properties: its files follow them (a Motion Photo shows motion.mp4). That is
    /// checked in the request's own snapshot, as the background has read most photos; a photo
    /// still to be read is read outside any snapshot (one holds a catalog reader) and the request
    /// then runs on a new one.
    @inlinable
    public func request<T>(preparing folder: UInt64? = nil, _ body: (borrowing CatalogSnapshot) -> Result<T, Errno>) -> Result<T, Errno> {
        var answer: Result<T, Errno> = .failure(.io)  // a placeholder: with no failure, `body` ran
        if let failure = runRequest(preparing: folder, { answer = body($0) }) { return .failure(failure) }
        return answer
    }

    /// `request`'s work, not generic (the generic part is inlined into each caller, the FUSE
    /// adapter's listing too, where an unspecialised call looked up type metadata every time):
    /// the errno to answer instead of `body`'s result, nil when that stands.
    @usableFromInline
    func runRequest(preparing folder: UInt64?, _ body: (borrowing CatalogSnapshot) -> Void) -> Errno? {
        let asset = folder.flatMap(Node.init(inode:))?.assetPhoto
        var unread: (row: CatalogStore.PhotoRow, sidecars: Set<[UInt8]>)?
        var read = catalog.request { catalog in
            if let asset, let row = photoLackingProperties(asset, in: catalog) {
                unread = (row, catalog.sidecarNames(inFolder: row.folder))
            } else {
                body(catalog)
            }
        }
        if let unread {
            _ = readAndStoreProperties(unread.row, sidecars: unread.sidecars)
            read = catalog.request(body)
        }
        return read ? nil : RequestFailure.catalogUnreadable.errno
    }

    /// A rendition's size must be exact before anyone reads it, so an unknown one is rendered
    /// first, outside the request's snapshot.
    private func attributes(_ found: Result<Described, Errno>, as caller: Credentials, interruption: Interruption.Source?,
                            completion: @escaping AttributesCompletion) {
        let described: Described
        switch found {
        case .failure(let error): return completion(.failure(error))
        case .success(let found): described = found
        }
        guard let target = described.rendition else { return completion(.success(described.attributes)) }
        settle(target, as: caller, interruption: interruption) { result in
            completion(result.map { settled in
                var sized = described.attributes
                sized.size = Int64(settled.size)
                return sized
            }.mapError { RequestFailure($0).errno })
        }
    }

    typealias Described = (attributes: Attributes, rendition: RenditionTarget?)

    private func describing(_ node: Node, in catalog: borrowing CatalogSnapshot) -> Result<Described, Errno> {
        describe(node, in: catalog).map { .success($0) } ?? .failure(.notFound)
    }

    /// What getattr and open need of a node, from one catalog lookup: its attributes (a
    /// rendition's size still 0) and, for a rendition, what decides its content.
    func describe(_ node: Node, in catalog: borrowing CatalogSnapshot) -> Described? {
        let inode = node.inode
        switch node {
        case .root, .groups, .view, .viewTop, .viewFolder, .ids:
            // Folders of many folders say 1 link, "not counted", as btrfs does: find then makes no
            // assumption from the count, and the count needs no scan of every album. A view's
            // folder counts its subfolders and members in its row.
            let links: Int
            switch node {
            case .root: links = 2 + tree.topEntries.count
            case .viewFolder(let id):
                guard let row = catalog.viewFolder(id) else { return nil }
                links = 2 + row.folders + row.members
            default: links = 1
            }
            return (Attributes(inode: inode, isDirectory: true, permissions: rootStatus.permissions & 0o555, size: 4096,
                               userID: rootStatus.userID, groupID: rootStatus.groupID,
                               modificationNanoseconds: rootStatus.modificationNanoseconds, linkCount: links), nil)
        case .album(let id), .viewAlbum(_, let id):
            guard let folder = catalog.folder(id) else { return nil }
            let owner = folder.ownership
            return (Attributes(inode: inode, isDirectory: true, permissions: owner.permissions, size: 4096,
                               userID: owner.userID, groupID: owner.groupID, modificationNanoseconds: owner.modificationNanoseconds,
                               linkCount: node == .album(id) ? 2 + folder.photoCount : 2), nil)
        case .poster(let id):
            guard let owner = catalog.folder(id)?.ownership else { return nil }
            return (Attributes(inode: inode, isDirectory: false, permissions: owner.permissions & 0o444, size: 0,
                               userID: owner.userID, groupID: owner.groupID, modificationNanoseconds: owner.modificationNanoseconds,
                               linkCount: 1), .firstRendering(album: id))
        case .asset, .member:
            guard let owner = tree.photo(for: node, in: catalog)?.photo.ownership else { return nil }
            let readable = owner.permissions & 0o444
            return (Attributes(inode: inode, isDirectory: true, permissions: readable | (readable >> 2), size: 4096,
                               userID: owner.userID, groupID: owner.groupID, modificationNanoseconds: owner.modificationNanoseconds,
                               linkCount: 2), nil)
        case .idLink(let id):
            guard let owner = tree.photo(for: node, in: catalog)?.photo.ownership, let target = tree.linkTarget(ofPhoto: id, in: catalog) else { return nil }
            return (Attributes(inode: inode, isDirectory: false, permissions: 0o777, size: Int64(target.count),
                               userID: owner.userID, groupID: owner.groupID, modificationNanoseconds: owner.modificationNanoseconds,
                               linkCount: 1, isSymbolicLink: true), nil)
        case .file, .viewFile:
            guard case .file(_, let kind, _) = node.canonical, let row = tree.photo(for: node, in: catalog),
                  let (shown, window) = source(kind, of: row, in: catalog) else { return nil }
            let photo = shown.photo
            // A size with a view has three names: in its asset folder, in the view and under dates/
            // (counted from the start: a photo is there as soon as its date is read); an original
            // two. Its members in the other views are not counted (that would cost a statement).
            let attributes = Attributes(inode: inode, isDirectory: false, permissions: photo.permissions & 0o444,
                                        size: Int64(window.count), userID: photo.userID, groupID: photo.groupID,
                                        modificationNanoseconds: photo.identity.modificationNanoseconds,
                                        linkCount: node.isRendition ? 3 : 2)
            guard case .rendition(let slot) = kind, let size = options.sizes[slot] else { return (attributes, nil) }
            return (attributes, .one(RenditionRequest(shown, spec: options.spec(size)), priority: size.isThumbnail ? .thumbnail : .interactive))
        }
    }

    /// The source file a file of kind `kind` shows (its catalog row) and the bytes of it, a
    /// rendition's size still 0: a rendition is made from the edit an original is paired with
    /// (what the phone showed), a Live Photo's `motion.mov` is its movie's file; nil for a photo
    /// with no motion.
    func source(_ kind: FileKind, of row: CatalogStore.PhotoRow, in catalog: borrowing CatalogSnapshot) -> (row: CatalogStore.PhotoRow, window: Range<Int64>)? {
        switch kind {
        case .rendition: return (catalog.renditionSource(of: row), 0..<0)
        case .original: return (row, 0..<row.photo.identity.size)
        case .motion:
            switch catalog.motion(of: row) {
            case .embedded(let range)?: return (row, range)
            case .movie(let movie)?: return (movie, 0..<movie.photo.identity.size)
            case nil: return nil
            }
        case .edited: return catalog.edit(of: row).map { ($0, 0..<$0.photo.identity.size) }
        }
    }

    /// The inode of the folder holding folder `inode` (the root's is the root): what `..` is.
    public func parent(of inode: UInt64, in catalog: borrowing CatalogSnapshot) -> Result<UInt64, Errno> {
        guard let node = tree.node(forInode: inode, in: catalog) else { return .failure(.notFound) }
        guard let parent = tree.parent(of: node, in: catalog) else { return .failure(.notDirectory) }
        return .success(parent.inode)
    }

    // MARK: Listing

    /// Up to `limit` entries of folder `inode` after `cookie` (0: from the start): names and inode
    /// numbers only, listing never renders.
    /// Entries `caller` may not open are left out. A request of its own.
    public func list(_ inode: UInt64, after cookie: Int64, limit: Int, as caller: Credentials) -> Result<[ListingEntry], Errno> {
        request(preparing: inode) { list(inode, after: cookie, limit: limit, as: caller, in: $0) }
    }

    /// `list`, in a request that prepared `inode` (`request(preparing:)`), for one that reads
    /// more in the same snapshot (READDIRPLUS: the entries' attributes).
    public func list(_ inode: UInt64, after cookie: Int64, limit: Int, as caller: Credentials,
                     in catalog: borrowing CatalogSnapshot) -> Result<[ListingEntry], Errno> {
        resolve(folder: inode, as: caller, in: catalog).flatMap { node in
            guard let entries = tree.entries(of: node, after: cookie, limit: limit, in: catalog) else { return .failure(.notDirectory) }
            // A page of no stored row (past the end, or a folder since removed) asks whether the folder is still there.
            if entries.allSatisfy({ Self.isListedAlways($0.node) }), case .failure(let error) = resolve(inode, as: caller, in: catalog) {
                return .failure(error)
            }
            return .success(entries.filter { permits($0.node, as: caller, in: catalog) }.map {
                ListingEntry(name: $0.name, inode: $0.node.inode, isDirectory: $0.node.isDirectory, cookie: $0.cookie)
            })
        }
    }

    /// Entries a folder lists whatever the catalog holds: the root's folders and an album's poster.
    private static func isListedAlways(_ node: Node) -> Bool {
        switch node {
        case .groups, .view, .viewTop, .ids, .poster: return true
        default: return false
        }
    }
}
