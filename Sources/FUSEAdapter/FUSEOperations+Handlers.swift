internal import CFUSE
import AssetFS
import Glibc
import Posix

/// One handler per libfuse low-level operation, as libfuse's examples have. C callbacks carry no
/// context: each handler finds the adapter in its request's userdata (`Request.adapter`).
extension FUSEOperations {
    /// The callback table. A C function pointer cannot name a static method, so each entry is a
    /// closure that only forwards (and captures nothing).
    static func table() -> fuse_lowlevel_ops {
        var ops = fuse_lowlevel_ops()
        ops.`init` = { FUSEOperations.initialize($0, $1) }
        ops.lookup = { FUSEOperations.lookup($0, $1, $2) }
        ops.getattr = { FUSEOperations.getattr($0, $1, $2) }
        ops.open = { FUSEOperations.open($0, $1, $2) }
        ops.read = { FUSEOperations.read($0, $1, $2, $3, $4) }
        ops.release = { FUSEOperations.release($0, $1, $2) }
        ops.opendir = { FUSEOperations.opendir($0, $1, $2) }
        ops.readdir = { FUSEOperations.readdir($0, $1, $2, $3, $4) }
        ops.readdirplus = { FUSEOperations.readdirplus($0, $1, $2, $3, $4) }
        ops.statfs = { FUSEOperations.statfs($0, $1) }
        ops.access = { FUSEOperations.access($0, $1, $2) }
        ops.getxattr = { FUSEOperations.getxattr($0, $1, $2, $3) }
        ops.listxattr = { FUSEOperations.listxattr($0, $1, $2) }
        ops.readlink = { FUSEOperations.readlink($0, $1) }
        return ops
    }

    /// INIT: the capabilities this filesystem takes from those the kernel offers.
    static func initialize(_ userdata: UnsafeMutableRawPointer?, _ conn: UnsafeMutablePointer<fuse_conn_info>?) {
        let adapter = Unmanaged<FUSEOperations>.fromOpaque(userdata!).takeUnretainedValue()
        let needed = UInt32(FUSE_CAP_NO_OPENDIR_SUPPORT)
        adapter.statelessOpendir.store(!adapter.othersMayEnter && conn!.pointee.capable & needed == needed, ordering: .relaxed)
        conn!.pointee.want = wanted(offered: conn!.pointee.capable, defaults: conn!.pointee.want)
    }

    /// The capabilities asked for, from those the kernel offers and libfuse's defaults:
    /// - re-export (NFS, Samba): the kernel may then ask for "." and ".." (`lookup`) to turn a
    ///   file handle (inode number and generation) back into a file it has forgotten;
    /// - READDIRPLUS on every page, not "auto". A page's attributes come with the rows it reads
    ///   anyway, but "auto" gives them with a folder's first page only, and later pages only
    ///   after a lookup in it: `find`, `du` or `rsync` read a folder whole before entering it, so
    ///   every entry past the first page cost a LOOKUP of its own (87,212 for `find events/` over
    ///   100k photos in events of ~1,470, against 807 for `groups/`, whose albums of 100 fit in
    ///   one page).
    static func wanted(offered: UInt32, defaults: UInt32) -> UInt32 {
        let export = UInt32(FUSE_CAP_EXPORT_SUPPORT)
        return (defaults | (offered & export)) & ~UInt32(FUSE_CAP_READDIRPLUS_AUTO)
    }

    static func lookup(_ req: fuse_req_t?, _ parent: fuse_ino_t, _ name: UnsafePointer<CChar>?) {
        let request = Request(req!)
        let name = FUSEOperations.name(name!)
        let fileSystem = request.adapter.fileSystem
        switch name {
        case [0x2E]:  // "." of any inode, file or folder, of this tree or (a file) the one before
            replyEntry(request, of: UInt64(parent))
        case [0x2E, 0x2E]:
            switch fileSystem.request({ fileSystem.parent(of: UInt64(parent), in: $0) }) {
            case .failure(let error): request.reply(error: error)
            case .success(let folder): replyEntry(request, of: folder)
            }
        default:
            let caller = request.caller, pending = PendingRequest(request)
            fileSystem.lookup(parent: UInt64(parent), name: name, as: caller, interruption: pending.interruptible) { pending.take()?.replyEntry($0) }
        }
    }

    /// Answers a lookup of "." or "..", which name an inode already known, with its entry.
    private static func replyEntry(_ request: consuming Request, of inode: UInt64) {
        let fileSystem = request.adapter.fileSystem, caller = request.caller
        let pending = PendingRequest(request)
        fileSystem.getattr(inode, as: caller) { pending.take()?.replyEntry($0) }
    }

    static func getattr(_ req: fuse_req_t?, _ inode: fuse_ino_t, _: UnsafeMutablePointer<fuse_file_info>?) {
        let request = Request(req!)
        let fileSystem = request.adapter.fileSystem, caller = request.caller
        let pending = PendingRequest(request)
        fileSystem.getattr(UInt64(inode), as: caller, interruption: pending.interruptible) { pending.take()?.replyAttributes($0) }
    }

    static func open(_ req: fuse_req_t?, _ inode: fuse_ino_t, _ fi: UnsafeMutablePointer<fuse_file_info>?) {
        let request = Request(req!)
        guard fi!.pointee.flags & O_ACCMODE == O_RDONLY else { return request.refuse(.writeOnReadOnlyMount) }
        // libfuse's fuse_file_info lives on the handler's stack: the reply, which may come
        // later from a render thread, gets a copy.
        let info = fi!.pointee
        let adapter = request.adapter, caller = request.caller
        let pending = PendingRequest(request)
        adapter.fileSystem.open(UInt64(inode), as: caller, interruption: pending.interruptible) { result in
            guard let request = pending.take() else { return }
            switch result {
            case .failure(let error): request.reply(error: error)
            case .success(let file):
                var reply = info
                reply.fh = adapter.remember(file)
                // Renditions and originals are immutable until their source changes, and
                // then the kernel is told: let it keep pages across opens.
                reply.keep_cache = 1
                // The opener went away: no RELEASE will come, so its handle goes now.
                if !request.replyOpen(reply) { adapter.forget(reply.fh) }
            }
        }
    }

    static func read(_ req: fuse_req_t?, _: fuse_ino_t, _ size: Int, _ offset: off_t, _ fi: UnsafeMutablePointer<fuse_file_info>?) {
        let request = Request(req!)
        let adapter = request.adapter
        guard let file = adapter.openFile(fi!.pointee.fh) else { return request.refuse(.unknownHandle) }
        let pending = PendingRequest(request)
        adapter.fileSystem.read(file, size: size, offset: Int64(offset), interruption: pending.interruptible) { pending.take()?.replyBytes($0) }
    }

    static func release(_ req: fuse_req_t?, _: fuse_ino_t, _ fi: UnsafeMutablePointer<fuse_file_info>?) {
        let request = Request(req!)
        request.adapter.forget(fi!.pointee.fh)
        request.replySuccess()
    }

    static func opendir(_ req: fuse_req_t?, _: fuse_ino_t, _ fi: UnsafeMutablePointer<fuse_file_info>?) {
        let request = Request(req!)
        // "Not implemented": no OPENDIR/RELEASEDIR from now on (FUSE_CAP_NO_OPENDIR_SUPPORT),
        // and listings cached.
        if request.adapter.statelessOpendir.load(ordering: .relaxed) { return request.refuse(.opendirNotNeeded) }
        // Listings change only with the source, and then the kernel is told (notify_inval_inode):
        // let it keep them, so `find` and `ls -R` cost one READDIR per folder, once. Not when
        // listings differ by user.
        if !request.adapter.othersMayEnter {
            fi!.pointee.cache_readdir = 1
            fi!.pointee.keep_cache = 1
        }
        _ = request.replyOpen(fi!.pointee)
    }

    static func readdir(_ req: fuse_req_t?, _ inode: fuse_ino_t, _ size: Int, _ offset: off_t, _: UnsafeMutablePointer<fuse_file_info>?) {
        list(Request(req!), UInt64(inode), size: size, offset: Int64(offset), withAttributes: false)
    }

    /// The same pages with each entry's attributes where they cost no render (folders,
    /// originals): `ls -l` and file managers of a big album need no LOOKUP per asset folder.
    static func readdirplus(_ req: fuse_req_t?, _ inode: fuse_ino_t, _ size: Int, _ offset: off_t, _: UnsafeMutablePointer<fuse_file_info>?) {
        list(Request(req!), UInt64(inode), size: size, offset: Int64(offset), withAttributes: true)
    }

    /// SOURCE's filesystem as it is, as sshfs reports the remote's: `df MNT` shows the disk
    /// that holds the photos, its free space and files. Not zero free for a read-only mount:
    /// monitoring takes that for a full disk.
    static func statfs(_ req: fuse_req_t?, _: fuse_ino_t) {
        let request = Request(req!)
        var info = statvfs()
        _ = request.adapter.fileSystem.root.withCString { statvfs($0, &info) }
        info.f_namemax = 255
        request.replyStatfs(info)
    }

    /// Asked only without default_permissions (other users let in): the daemon's check.
    static func access(_ req: fuse_req_t?, _ inode: fuse_ino_t, _ mask: Int32) {
        let request = Request(req!)
        if let error = request.adapter.fileSystem.access(UInt64(inode), mask, as: request.caller) {
            request.reply(error: error)
        } else {
            request.replySuccess()
        }
    }

    static func getxattr(_ req: fuse_req_t?, _ inode: fuse_ino_t, _ name: UnsafePointer<CChar>?, _ size: Int) {
        let request = Request(req!)
        let attribute = FUSEOperations.name(name!)
        // Only user.* attributes exist here.
        guard attribute.starts(with: Array("user.".utf8)) else { return request.refuse(.attributeNamespaceUnsupported) }
        switch request.adapter.fileSystem.extendedAttribute(UInt64(inode), name: attribute, as: request.caller) {
        case .success(let value): request.replyAttribute(value, size: size)
        case .failure(let error): request.reply(error: error)
        }
    }

    /// READLINK: `ids/<id>`'s target, made now from the names the photo has now (libfuse 3.14
    /// leaves symlinks uncached unless FUSE_CAP_CACHE_SYMLINKS is asked for: it is not).
    static func readlink(_ req: fuse_req_t?, _ inode: fuse_ino_t) {
        let request = Request(req!)
        let fileSystem = request.adapter.fileSystem, caller = request.caller
        switch fileSystem.request({ fileSystem.linkTarget(UInt64(inode), as: caller, in: $0) }) {
        case .success(let target): request.replyLink(target)
        case .failure(let error): request.reply(error: error)
        }
    }

    static func listxattr(_ req: fuse_req_t?, _ inode: fuse_ino_t, _ size: Int) {
        let request = Request(req!)
        let names = request.adapter.fileSystem.extendedAttributeNames(UInt64(inode), as: request.caller).flatMap { $0 + [UInt8(0)] }
        request.replyAttribute(names, size: size)
    }
}
