internal import CFUSE
import AssetFS
import Catalog
import Glibc
import Posix
import Synchronization

/// The libfuse low-level callbacks, turning each kernel request into a call on the
/// `AssetFileSystem` and its result into one reply. Open files are kept here by handle.
final class FUSEOperations: Sendable {
    let fileSystem: AssetFileSystem
    private let openFiles = Locked<[UInt64: OpenFile]>([:])
    private let nextHandle = Atomic<UInt64>(1)
    /// The kernel can do without OPENDIR/RELEASEDIR: folders here need no per-open state. Files
    /// do: an open original holds its source open, so it reads on the version it opened even
    /// when the photo is replaced meanwhile, as any POSIX file does.
    let statelessOpendir = Atomic<Bool>(false)
    /// `-o allow_other`: requests come from users whose rights differ, and the kernel shares its
    /// caches among them. Every open and listing then comes here to be checked for its user, and
    /// entries that show a photo are looked up again by each user who walks to them.
    let othersMayEnter: Bool

    init(fileSystem: AssetFileSystem, othersMayEnter: Bool) {
        self.fileSystem = fileSystem
        self.othersMayEnter = othersMayEnter
    }

    /// Whether the kernel may keep `inode`'s entry (and take its attributes from a listing) for
    /// every user: not, when others may enter, for one that shows a photo, which each user must
    /// look up to pass their own check.
    func sharesEntry(_ inode: UInt64) -> Bool { !othersMayEnter || AssetFileSystem.isReachableByEveryone(inode) }

    func remember(_ file: OpenFile) -> UInt64 {
        let handle = nextHandle.wrappingAdd(1, ordering: .relaxed).oldValue
        openFiles.withLock { $0[handle] = file }
        return handle
    }

    func openFile(_ handle: UInt64) -> OpenFile? { openFiles.withLock { $0[handle] } }
    /// Takes the handle back. An original's source closes once the READs that hold it are done.
    func forget(_ handle: UInt64) { openFiles.withLock { _ = $0.removeValue(forKey: handle) } }

    static func name(_ pointer: UnsafePointer<CChar>) -> [UInt8] {
        Array(UnsafeRawBufferPointer(start: pointer, count: strlen(pointer)))
    }

    /// One page of folder `inode`'s listing. Kernel offsets 1 and 2 are "." and ".."; entries
    /// carry their cookie + 2. One page is one query for about as many entries as fit: a big
    /// folder is never listed whole. Every d_ino is the st_ino a lookup of the name gives (NFS
    /// finds a handle's name by it); ".."'s is asked for only on the page that holds it.
    static func list(_ request: consuming Request, _ inode: UInt64, size: Int, offset: Int64, withAttributes: Bool) {
        let fileSystem = request.adapter.fileSystem
        let page = fileSystem.request(preparing: inode) { catalog in
            listing(request, of: fileSystem, inode, size: size, offset: offset, withAttributes: withAttributes, in: catalog)
        }
        request.replyBytes(page)
    }

    /// A page of folder `inode`: its entries packed as the kernel reads them, or an error. Its
    /// "..", entries and their attributes come from one snapshot of the catalog.
    private static func listing(_ request: borrowing Request, of fileSystem: AssetFileSystem, _ inode: UInt64, size: Int, offset: Int64,
                                withAttributes: Bool, in catalog: borrowing CatalogSnapshot) -> Result<[UInt8], Errno> {
        var dots: [ListingEntry] = []
        if offset < 1 { dots.append(ListingEntry(name: [0x2E], inode: inode, isDirectory: true, cookie: -1)) }
        if offset < 2 {
            let parent = (try? fileSystem.parent(of: inode, in: catalog).get()) ?? inode
            dots.append(ListingEntry(name: [0x2E, 0x2E], inode: parent, isDirectory: true, cookie: 0))
        }
        // An entry takes at least 32 bytes (24 and its name, 8-byte aligned), 160 with attributes.
        let caller = request.caller, adapter = request.adapter
        return fileSystem.list(inode, after: max(0, offset - 2), limit: size / (withAttributes ? 160 : 32) + 1, as: caller, in: catalog).map { entries in
            guard withAttributes else { return directoryBuffer(request, dots + entries, size: size) }
            // "." and ".." go without attributes: the kernel takes none for them. Nor does an
            // entry whose reach differs by user when others may enter: each user looks it up.
            return directoryBuffer(request, dots + entries, size: size, withAttributes: true) { entry in
                guard entry.cookie > 0, adapter.sharesEntry(entry.inode) else { return nil }
                return fileSystem.attributesWithoutRendering(entry.inode, as: caller, in: catalog)
            }
        }
    }

    /// Packs entries into at most `size` bytes; each entry's offset is its cookie + 2. With
    /// attributes (READDIRPLUS), each entry carries those `attributes` gives; one without (node
    /// id 0) is only named, and the kernel looks it up when it needs it.
    static func directoryBuffer(_ request: borrowing Request, _ entries: [ListingEntry], size: Int, withAttributes: Bool = false,
                                attributes: (ListingEntry) -> Attributes? = { _ in nil }) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: size)
        var used = 0
        for entry in entries {
            var st = Glibc.stat()
            st.st_ino = ino_t(entry.inode)
            st.st_mode = entry.isDirectory ? S_IFDIR : S_IFREG
            let offset = off_t(entry.cookie + 2)
            let fitted = (entry.name + [0]).withUnsafeBufferPointer { name in
                buffer.withUnsafeMutableBytes { raw -> Bool in
                    let start = raw.baseAddress!.assumingMemoryBound(to: CChar.self) + used
                    let cName = UnsafeRawPointer(name.baseAddress!).assumingMemoryBound(to: CChar.self)
                    guard withAttributes else {
                        let needed = request.addDirectoryEntry(start, room: size - used, name: cName, status: &st, offset: offset)
                        guard used + needed <= size else { return false }
                        used += needed
                        return true
                    }
                    // Sized first (a nil buffer only measures): attributes are looked up only
                    // for entries that fit.
                    let needed = request.addDirectoryEntryPlus(nil, room: 0, name: cName, entry: nil, offset: offset)
                    guard used + needed <= size else { return false }
                    var plus = attributes(entry).map(Request.entry) ?? fuse_entry_param()
                    if plus.ino == 0 { plus.attr = st }
                    used += request.addDirectoryEntryPlus(start, room: size - used, name: cName, entry: &plus, offset: offset)
                    return true
                }
            }
            if !fitted { break }
        }
        return Array(buffer.prefix(used))
    }
}
