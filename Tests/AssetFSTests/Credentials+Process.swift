import Glibc
import Posix

extension Credentials {
    /// This test process's own: what a request from the user serving the mount carries.
    static var ofThisProcess: Credentials {
        let count = max(0, getgroups(0, nil))
        var groups = [gid_t](repeating: 0, count: Int(count))
        let got = getgroups(count, &groups)
        return Credentials(userID: geteuid(), groupID: getegid(), groups: Array(groups.prefix(max(0, Int(got)))))
    }
}
