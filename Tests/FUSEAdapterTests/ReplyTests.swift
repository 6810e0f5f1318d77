@testable import AssetFS
import CFUSE
@testable import FUSEAdapter
import Testing

/// What the kernel is told about a node.
@Suite struct ReplyTests {
    func folder(_ inode: UInt64) -> Attributes {
        Attributes(inode: inode, isDirectory: true, permissions: 0o555, size: 4096, userID: 0, groupID: 0,
                   modificationNanoseconds: 0, linkCount: 2)
    }

    /// The kernel's root inode has generation 0: an entry that names it (a lookup of ".." in a
    /// top folder, as an NFS server reconnecting a handle asks) must say 0 too, or the kernel
    /// logs "fuse: root generation should be zero".
    @Test func theRootsGenerationIsZero() {
        #expect(Request.entry(folder(1)).generation == 0)
        #expect(Request.entry(folder(2)).generation == 1, "other inodes keep the generation their NFS handles carry")
    }

    /// INIT: every page of a listing carries its entries' attributes (READDIRPLUS, never "auto",
    /// whose later pages leave `find` a LOOKUP per entry), and re-export is asked for where offered.
    @Test func everyPageOfAListingCarriesAttributes() {
        let plus = UInt32(FUSE_CAP_READDIRPLUS), auto = UInt32(FUSE_CAP_READDIRPLUS_AUTO), export = UInt32(FUSE_CAP_EXPORT_SUPPORT)
        let wanted = FUSEOperations.wanted(offered: plus | auto | export, defaults: plus | auto)
        #expect(wanted & plus != 0 && wanted & auto == 0 && wanted & export != 0)
        #expect(FUSEOperations.wanted(offered: plus | auto, defaults: plus | auto) == plus)
        #expect(FUSEOperations.wanted(offered: plus | auto, defaults: 0) == 0, "-o readdirplus=no stays no")
    }
}
