import Foundation
import Glibc

/// `getxattr(2)`: Swift's Glibc module does not export <sys/xattr.h>.
@_silgen_name("getxattr")
private func system_getxattr(_ path: UnsafePointer<CChar>, _ name: UnsafePointer<CChar>, _ value: UnsafeMutableRawPointer?, _ size: Int) -> Int

/// File operations on paths given as raw bytes, so that names which are not UTF-8 (or hold a
/// newline) work: Foundation's String paths cannot carry them.
enum RawFiles {
    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    static func withPath<T>(_ path: [UInt8], _ body: (UnsafePointer<CChar>) -> T) -> T {
        (path + [0]).withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { body($0.baseAddress!) } }
    }

    /// `mkdir -p`.
    static func makeDirectories(_ path: [UInt8]) throws {
        var prefix: [UInt8] = []
        for component in path.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true) {
            prefix += [UInt8(ascii: "/")] + component
            if withPath(prefix, { mkdir($0, 0o755) }) != 0 && errno != EEXIST { throw POSIXError(errno, "mkdir", prefix) }
        }
    }

    /// Creates or truncates `path` and writes `contents` (the same inode when it exists).
    static func write(_ contents: [UInt8], to path: [UInt8]) throws {
        let fd = withPath(path) { open($0, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) }
        guard fd >= 0 else { throw POSIXError(errno, "open", path) }
        defer { close(fd) }
        var done = 0
        while done < contents.count {
            let n = contents.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + done, contents.count - done) }
            guard n > 0 else { throw POSIXError(errno, "write", path) }
            done += n
        }
    }

    /// `realpath(3)`.
    static func realPath(_ path: String) -> String? {
        guard let real = realpath(path, nil) else { return nil }
        defer { free(real) }
        return String(cString: real)
    }

    /// All bytes of `path`, or the errno that stopped open or read.
    static func read(_ path: [UInt8]) -> Result<[UInt8], POSIXError> {
        let fd = withPath(path) { open($0, O_RDONLY | O_CLOEXEC) }
        guard fd >= 0 else { return .failure(POSIXError(errno, "open", path)) }
        defer { close(fd) }
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 { return .failure(POSIXError(errno, "read", path)) }
            if n == 0 { return .success(result) }
            result += buffer[0..<n]
        }
    }

    /// `stat(2)`: the status, or the errno.
    static func status(_ path: [UInt8], followLinks: Bool = true) -> Result<stat, POSIXError> {
        var st = stat()
        let rc = withPath(path) { followLinks ? stat($0, &st) : lstat($0, &st) }
        return rc == 0 ? .success(st) : .failure(POSIXError(errno, "stat", path))
    }

    /// The names in a folder (without `.` and `..`), in readdir order.
    static func names(in path: [UInt8]) -> [[UInt8]]? {
        guard let dir = withPath(path, { opendir($0) }) else { return nil }
        defer { closedir(dir) }
        var names: [[UInt8]] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
            if name != [0x2E] && name != [0x2E, 0x2E] { names.append(name) }
        }
        return names
    }

    /// An extended attribute's value, or the errno.
    static func extendedAttribute(_ name: String, of path: [UInt8]) -> Result<[UInt8], POSIXError> {
        var buffer = [UInt8](repeating: 0, count: 65536)
        let n = withPath(path) { p in buffer.withUnsafeMutableBytes { system_getxattr(p, name, $0.baseAddress, $0.count) } }
        return n >= 0 ? .success(Array(buffer.prefix(n))) : .failure(POSIXError(errno, "getxattr \(name)", path))
    }

    /// Every file and folder under `root` (relative paths) with its size, mtime and, for files,
    /// contents: to prove that a mount left its source alone.
    static func snapshot(_ root: [UInt8]) -> [[UInt8]: Snapshot] {
        var result: [[UInt8]: Snapshot] = [:]
        func visit(_ relative: [UInt8]) {
            let path = relative.isEmpty ? root : root + [0x2F] + relative
            guard case .success(let st) = status(path, followLinks: false) else { return }
            let isDirectory = st.st_mode & S_IFMT == S_IFDIR
            let contents: [UInt8]? = st.st_mode & S_IFMT == S_IFREG ? (try? read(path).get()) : nil
            result[relative] = Snapshot(mode: st.st_mode, size: Int64(st.st_size),
                                        mtime: Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec), contents: contents)
            if isDirectory {
                for name in names(in: path) ?? [] { visit(relative.isEmpty ? name : relative + [0x2F] + name) }
            }
        }
        visit([])
        return result
    }

    struct Snapshot: Equatable {
        var mode: mode_t
        var size: Int64
        var mtime: Int64
        var contents: [UInt8]?
    }
}

/// An errno with what failed and on which path.
struct POSIXError: Error, CustomStringConvertible, Equatable {
    var code: Int32
    var operation: String
    var path: [UInt8]
    init(_ code: Int32, _ operation: String, _ path: [UInt8]) {
        self.code = code
        self.operation = operation
        self.path = path
    }
    var description: String { "\(operation) \(String(decoding: path, as: UTF8.self)): \(String(cString: strerror(code)))" }
}

extension Array where Element == UInt8 {
    /// For messages: the bytes as text, invalid UTF-8 shown as U+FFFD.
    var text: String { String(decoding: self, as: UTF8.self) }
    static func / (lhs: [UInt8], rhs: [UInt8]) -> [UInt8] { lhs + [0x2F] + rhs }
    static func / (lhs: [UInt8], rhs: String) -> [UInt8] { lhs + [0x2F] + Array(rhs.utf8) }
}
