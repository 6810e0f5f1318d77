/// `getxattr(2)`, which Swift's Glibc module does not export (it lives in <sys/xattr.h>).
@_silgen_name("getxattr")
private func system_getxattr(_ path: UnsafePointer<CChar>, _ name: UnsafePointer<CChar>, _ value: UnsafeMutableRawPointer?, _ size: Int) -> Int

public enum ExtendedAttributes {
    /// The value of attribute `name` of `path` (up to 64 KiB).
    public static func value(of name: String, at path: FilePath) throws(Errno) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 65536)
        let length = try syscall {
            path.withCString { p in buffer.withUnsafeMutableBytes { system_getxattr(p, name, $0.baseAddress, $0.count) } }
        }
        return Array(buffer.prefix(length))
    }
}
