internal import CFUSE
import AssetFS
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
    func forget(_ handle: UInt64) -> OpenFile? { openFiles.withLock { $0.removeValue(forKey: handle) } }

    static func name(_ pointer: UnsafePointer<CChar>) -> [UInt8] {
        Array(UnsafeRawBufferPointer(start: pointer, count: strlen(pointer)))
    }

    /// The callback table. Closures capture nothing: the adapter comes from the session userdata.
    static func table() -> fuse_lowlevel_ops {
        var ops = fuse_lowlevel_ops()
        ops.`init` = { userdata, conn in
            let adapter = Unmanaged<FUSEOperations>.fromOpaque(userdata!).takeUnretainedValue()
            let needed = UInt32(FUSE_CAP_NO_OPENDIR_SUPPORT)
            adapter.statelessOpendir.store(!adapter.othersMayEnter && conn!.pointee.capable & needed == needed, ordering: .relaxed)
            // NFS and Samba re-export: the kernel may then ask for "." and ".." (below) to turn a
            // file handle (inode number and generation) back into a file it has forgotten.
            let export = UInt32(FUSE_CAP_EXPORT_SUPPORT)
            if conn!.pointee.capable & export != 0 { conn!.pointee.want |= export }
        }
        ops.lookup = { req, parent, name in
            let request = Request(raw: req!)
            let name = FUSEOperations.name(name!)
            let fileSystem = request.adapter.fileSystem
            switch name {
            case [0x2E]:  // "." of any inode, file or folder, of this tree or (a file) the one before
                fileSystem.getattr(UInt64(parent), as: request.caller) { request.replyEntry($0) }
            case [0x2E, 0x2E]:
                switch fileSystem.parent(of: UInt64(parent)) {
                case .failure(let error): request.reply(error: error)
                case .success(let folder): fileSystem.getattr(folder, as: request.caller) { request.replyEntry($0) }
                }
            default:
                fileSystem.lookup(parent: UInt64(parent), name: name, as: request.caller) { request.replyEntry($0) }
            }
        }
        ops.getattr = { req, ino, _ in
            let request = Request(raw: req!)
            request.adapter.fileSystem.getattr(UInt64(ino), as: request.caller) { request.replyAttributes($0) }
        }
        ops.open = { req, ino, fi in
            let request = Request(raw: req!)
            guard fi!.pointee.flags & O_ACCMODE == O_RDONLY else { return request.reply(error: .readOnlyFileSystem) }
            // libfuse's fuse_file_info lives on the handler's stack: the reply, which may come
            // later from a render thread, gets a copy.
            let info = FileInfo(value: fi!.pointee)
            request.adapter.fileSystem.open(UInt64(ino), as: request.caller) { result in
                switch result {
                case .failure(let error): request.reply(error: error)
                case .success(let file):
                    var reply = info.value
                    reply.fh = request.adapter.remember(file)
                    // Renditions and originals are immutable until their source changes, and
                    // then the kernel is told: let it keep pages across opens.
                    reply.keep_cache = 1
                    if fuse_reply_open(request.raw, &reply) != 0, let file = request.adapter.forget(reply.fh) {
                        request.adapter.fileSystem.release(file)  // the opener went away
                    }
                }
            }
        }
        ops.read = { req, ino, size, offset, fi in
            let request = Request(raw: req!)
            guard let file = request.adapter.openFile(fi!.pointee.fh) else { return request.reply(error: .badFileDescriptor) }
            request.adapter.fileSystem.read(file, size: size, offset: Int64(offset)) { request.replyBytes($0) }
        }
        ops.release = { req, _, fi in
            let request = Request(raw: req!)
            if let file = request.adapter.forget(fi!.pointee.fh) { request.adapter.fileSystem.release(file) }
            request.reply(error: Errno(rawValue: 0))
        }
        ops.opendir = { req, _, fi in
            let request = Request(raw: req!)
            // "Not implemented": no OPENDIR/RELEASEDIR from now on (FUSE_CAP_NO_OPENDIR_SUPPORT),
            // and listings cached.
            if request.adapter.statelessOpendir.load(ordering: .relaxed) { return request.reply(error: Errno(rawValue: ENOSYS)) }
            // Listings change only with the source, and then the kernel is told (notify_inval_inode):
            // let it keep them, so `find` and `ls -R` cost one READDIR per folder, once. Not when
            // listings differ by user.
            if !request.adapter.othersMayEnter {
                fi!.pointee.cache_readdir = 1
                fi!.pointee.keep_cache = 1
            }
            fuse_reply_open(req, fi)
        }
        ops.readdir = { req, ino, size, offset, _ in
            FUSEOperations.list(Request(raw: req!), UInt64(ino), size: size, offset: Int64(offset), withAttributes: false)
        }
        // The same pages with each entry's attributes where they cost no render (folders,
        // originals): `ls -l` and file managers of a big album need no LOOKUP per asset folder.
        ops.readdirplus = { req, ino, size, offset, _ in
            FUSEOperations.list(Request(raw: req!), UInt64(ino), size: size, offset: Int64(offset), withAttributes: true)
        }
        // SOURCE's filesystem as it is, as sshfs reports the remote's: `df MNT` shows the disk
        // that holds the photos, its free space and files. Not zero free for a read-only mount:
        // monitoring takes that for a full disk.
        ops.statfs = { req, _ in
            let request = Request(raw: req!)
            var info = statvfs()
            _ = request.adapter.fileSystem.root.withCString { statvfs($0, &info) }
            info.f_namemax = 255
            fuse_reply_statfs(req, &info)
        }
        // Asked only without default_permissions (other users let in): the daemon's check.
        ops.access = { req, ino, mask in
            let request = Request(raw: req!)
            request.reply(error: request.adapter.fileSystem.access(UInt64(ino), mask, as: request.caller) ?? Errno(rawValue: 0))
        }
        ops.getxattr = { req, ino, name, size in
            let request = Request(raw: req!)
            let attribute = FUSEOperations.name(name!)
            // Only user.* attributes exist here. "Not supported" for security.* and system.* makes
            // tools such as `ls -l` stop asking for the rest of the mount (unlike "no such attribute").
            guard attribute.starts(with: Array("user.".utf8)) else { return request.reply(error: Errno(rawValue: EOPNOTSUPP)) }
            switch request.adapter.fileSystem.extendedAttribute(UInt64(ino), name: attribute, as: request.caller) {
            case .success(let value): request.replyAttribute(value, size: size)
            case .failure(let error): request.reply(error: error)
            }
        }
        ops.listxattr = { req, ino, size in
            let request = Request(raw: req!)
            let names = request.adapter.fileSystem.extendedAttributeNames(UInt64(ino), as: request.caller).flatMap { $0 + [UInt8(0)] }
            request.replyAttribute(names, size: size)
        }
        return ops
    }

    /// One page of folder `inode`'s listing. Kernel offsets 1 and 2 are "." and ".."; entries
    /// carry their cookie + 2. One page is one query for about as many entries as fit: a big
    /// folder is never listed whole. Every d_ino is the st_ino a lookup of the name gives (NFS
    /// finds a handle's name by it); ".."'s is asked for only on the page that holds it.
    static func list(_ request: Request, _ inode: UInt64, size: Int, offset: Int64, withAttributes: Bool) {
        let fileSystem = request.adapter.fileSystem
        request.replyBytes(fileSystem.consistently {
            listing(request, of: fileSystem, inode, size: size, offset: offset, withAttributes: withAttributes)
        })
    }

    /// A page of folder `inode`: its entries packed as the kernel reads them, or an error.
    private static func listing(_ request: Request, of fileSystem: AssetFileSystem, _ inode: UInt64, size: Int, offset: Int64,
                                withAttributes: Bool) -> Result<[UInt8], Errno> {
        var dots: [ListingEntry] = []
        if offset < 1 { dots.append(ListingEntry(name: [0x2E], inode: inode, isDirectory: true, cookie: -1)) }
        if offset < 2 {
            let parent = (try? fileSystem.parent(of: inode).get()) ?? inode
            dots.append(ListingEntry(name: [0x2E, 0x2E], inode: parent, isDirectory: true, cookie: 0))
        }
        // An entry takes at least 32 bytes (24 and its name, 8-byte aligned), 160 with attributes.
        let caller = request.caller, adapter = request.adapter
        return fileSystem.list(inode, after: max(0, offset - 2), limit: size / (withAttributes ? 160 : 32) + 1, as: caller).map { entries in
            // "." and ".." go without attributes: the kernel takes none for them. Nor does an
            // entry whose reach differs by user when others may enter: each user looks it up.
            let attributes: ((ListingEntry) -> Attributes?)? = withAttributes ? { entry in
                guard entry.cookie > 0, adapter.sharesEntry(entry.inode) else { return nil }
                return fileSystem.attributesWithoutRendering(entry.inode, as: caller)
            } : nil
            return directoryBuffer(request.raw, dots + entries, size: size, attributes: attributes)
        }
    }

    /// Packs entries into at most `size` bytes; each entry's offset is its cookie + 2. With
    /// `attributes` (READDIRPLUS), each entry carries those it has; one without (node id 0) is
    /// only named, and the kernel looks it up when it needs it.
    static func directoryBuffer(_ req: fuse_req_t, _ entries: [ListingEntry], size: Int,
                                attributes: ((ListingEntry) -> Attributes?)? = nil) -> [UInt8] {
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
                    guard let attributes else {
                        let needed = fuse_add_direntry(req, start, size - used, cName, &st, offset)
                        guard used + needed <= size else { return false }
                        used += needed
                        return true
                    }
                    // Sized first (a nil buffer only measures): attributes are looked up only
                    // for entries that fit.
                    let needed = fuse_add_direntry_plus(req, nil, 0, cName, nil, offset)
                    guard used + needed <= size else { return false }
                    var plus = attributes(entry).map(Request.entry) ?? fuse_entry_param()
                    if plus.ino == 0 { plus.attr = st }
                    used += fuse_add_direntry_plus(req, start, size - used, cName, &plus, offset)
                    return true
                }
            }
            if !fitted { break }
        }
        return Array(buffer.prefix(used))
    }
}

/// A copy of the kernel's file info for one open, carried to the thread that answers it.
struct FileInfo: @unchecked Sendable {
    let value: fuse_file_info
}
