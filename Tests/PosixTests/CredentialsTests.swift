import Testing
@testable import Posix

/// The kernel's access rule, as `Credentials.may` evaluates it for another user's request.
@Suite struct CredentialsTests {
    func file(mode: UInt32, owner: UInt32 = 1000, group: UInt32 = 1000) -> FileStatus {
        FileStatus(device: 1, inode: 1, mode: 0o100000 | mode, userID: owner, groupID: group, size: 0,
                   modificationNanoseconds: 0, changeNanoseconds: 0)
    }

    let owner = Credentials(userID: 1000, groupID: 1000)
    let member = Credentials(userID: 2000, groupID: 3000, groups: [1000])
    let stranger = Credentials(userID: 4000, groupID: 4000)

    @Test func ownerGroupAndOtherBitsDecideInThatOrder() {
        #expect(owner.may(.read, status: file(mode: 0o400)))
        #expect(!owner.may(.read, status: file(mode: 0o044)))        // the owner's own bits, even if others may
        #expect(member.may(.read, status: file(mode: 0o040)))         // a supplementary group counts
        #expect(!member.may(.read, status: file(mode: 0o404)))
        #expect(stranger.may(.read, status: file(mode: 0o004)))
        #expect(!stranger.may(.read, status: file(mode: 0o770)))
        #expect(!stranger.may([.read, .search], status: file(mode: 0o004)))
        #expect(Credentials(userID: 0, groupID: 0).may([.read, .search], status: file(mode: 0)))
    }

    @Test func aclNamedEntriesAreMaskedAndGroupsAnyGrant() throws {
        // user::rw- user:4000:r-- group::--- group:3000:r-- mask::r-- other::---, as setfacl writes it
        var bytes: [UInt8] = [2, 0, 0, 0]
        for (tag, permissions, id) in [(0x01, 6, UInt32.max), (0x02, 4, 4000), (0x04, 0, UInt32.max),
                                       (0x08, 4, 3000), (0x10, 4, UInt32.max), (0x20, 0, UInt32.max)] as [(UInt16, UInt16, UInt32)] {
            bytes += [UInt8(tag & 0xFF), UInt8(tag >> 8), UInt8(permissions), 0] + (0..<4).map { UInt8(truncatingIfNeeded: id >> (8 * $0)) }
        }
        let acl = try #require(AccessControlList(attribute: bytes))
        #expect(acl.users == [4000: 4] && acl.groups == [3000: 4] && acl.mask == 4)
        #expect(stranger.may(.read, status: file(mode: 0o640), acl: acl))                       // named user
        #expect(member.may(.read, status: file(mode: 0o640), acl: acl))                         // named group 3000
        #expect(!Credentials(userID: 5000, groupID: 1000).may(.read, status: file(mode: 0o640), acl: acl))  // owning group: ---
        #expect(!Credentials(userID: 6000, groupID: 6000).may(.read, status: file(mode: 0o640), acl: acl))  // other: ---
        var masked = acl
        masked.mask = 0
        #expect(!stranger.may(.read, status: file(mode: 0o600), acl: masked))
        #expect(AccessControlList(attribute: [1, 0, 0, 0]) == nil)
    }
}
