import Glibc

/// Whether syslog(3) would reach anyone: it sends to the socket /dev/log and silently drops
/// messages when nothing listens there (containers often have no syslog daemon).
public enum SyslogSocket {
    /// `path` is a Unix socket that takes a connection, as syslog(3) tries: datagram, else stream.
    public static func acceptsMessages(at path: FilePath) -> Bool {
        guard let status = try? FileStatus(path: path), status.mode & UInt32(S_IFMT) == UInt32(S_IFSOCK) else { return false }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        guard path.bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: path.bytes) }
        for type in [SOCK_DGRAM, SOCK_STREAM] {
            guard let opened = try? syscall({ Glibc.socket(AF_UNIX, Int32(type.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0) }) else { continue }
            let owner = OwnedFileDescriptor(adopting: opened), socket = owner.rawValue
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                    try? syscall { connect(socket, pointer, socklen_t(MemoryLayout<sockaddr_un>.size)) }
                }
            }
            if connected != nil { return true }
        }
        return false
    }
}
