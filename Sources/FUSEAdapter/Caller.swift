internal import CFUSE
import Posix

extension Request {
    /// Who sent the request. Supplementary groups are read (from /proc, by libfuse) only for a
    /// caller whose rights are checked.
    var caller: Credentials {
        let context = fuse_req_ctx(raw)!.pointee
        var caller = Credentials(userID: context.uid, groupID: context.gid)
        guard !caller.reachesAllThisProcessReaches else { return caller }
        var groups = [gid_t](repeating: 0, count: 64)
        var count = Int(fuse_req_getgroups(raw, Int32(groups.count), &groups))
        if count > groups.count {
            groups = [gid_t](repeating: 0, count: count)
            count = Int(fuse_req_getgroups(raw, Int32(groups.count), &groups))
        }
        caller.groups = Array(groups.prefix(max(0, min(count, groups.count))))
        return caller
    }
}
