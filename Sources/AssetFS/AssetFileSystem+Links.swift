import Catalog
import MountModel
import Posix

/// `ids/<id>`, the mount's one kind of symbolic link: READLINK's answer.
extension AssetFileSystem {
    /// Where the symbolic link `inode` points (`ids/<id>`: its asset folder, as named now).
    public func linkTarget(_ inode: UInt64, as caller: Credentials, in catalog: borrowing CatalogSnapshot) -> Result<[UInt8], Errno> {
        resolve(inode, as: caller, in: catalog).flatMap { node in
            guard case .idLink(let id) = node else { return .failure(RequestFailure.notALink.errno) }
            return tree.linkTarget(ofPhoto: id, in: catalog).map { .success($0) } ?? .failure(.notFound)
        }
    }
}
