import Glibc

/// A path as Linux sees it: bytes, not necessarily UTF-8. Names that are not valid UTF-8
/// must still round-trip exactly, so nothing here decodes them.
public struct FilePath: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var bytes: [UInt8]

    public init(bytes: [UInt8]) { self.bytes = bytes }
    public init(_ string: String) { self.bytes = Array(string.utf8) }

    /// For logs and messages: invalid UTF-8 shows as U+FFFD.
    public var description: String { String(decoding: bytes, as: UTF8.self) }

    public var isEmpty: Bool { bytes.isEmpty }

    public func appending(_ component: [UInt8]) -> FilePath {
        if bytes.isEmpty { return FilePath(bytes: component) }
        if bytes.last == UInt8(ascii: "/") { return FilePath(bytes: bytes + component) }
        return FilePath(bytes: bytes + [UInt8(ascii: "/")] + component)
    }

    public func appending(_ relative: FilePath) -> FilePath {
        relative.isEmpty ? self : appending(relative.bytes)
    }

    /// The last component (`basename`), without trailing slashes.
    public var lastComponent: [UInt8] {
        var end = bytes.endIndex
        while end > bytes.startIndex + 1 && bytes[end - 1] == UInt8(ascii: "/") { end -= 1 }
        let slice = bytes[..<end]
        if let slash = slice.lastIndex(of: UInt8(ascii: "/")), slice.count > 1 { return Array(slice[(slash + 1)...]) }
        return Array(slice)
    }

    /// The folder holding the last component (`dirname`): `/a/b` → `/a`, `/a` → `/`; for a
    /// relative path, `a/b` → `a` and `a` → the empty path (the folder it is relative to).
    public var parent: FilePath {
        guard let slash = bytes.dropLast().lastIndex(of: UInt8(ascii: "/")) else {
            return FilePath(bytes: bytes.first == UInt8(ascii: "/") ? [UInt8(ascii: "/")] : [])
        }
        return FilePath(bytes: slash == 0 ? [UInt8(ascii: "/")] : Array(bytes[..<slash]))
    }

    public var components: [[UInt8]] {
        bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true).map(Array.init)
    }

    public func withCString<R>(_ body: (UnsafePointer<CChar>) throws -> R) rethrows -> R {
        try (bytes + [0]).withUnsafeBufferPointer { buffer in
            try buffer.withMemoryRebound(to: CChar.self) { try body($0.baseAddress!) }
        }
    }

    /// `realpath(3)`: absolute, symlinks resolved.
    public func resolved() throws(Errno) -> FilePath {
        let result: UnsafeMutablePointer<CChar>? = withCString { realpath($0, nil) }
        guard let result else { throw Errno.current }
        defer { free(result) }
        return FilePath(bytes: Array(UnsafeBufferPointer(start: result, count: strlen(result)).map { UInt8(bitPattern: $0) }))
    }

    public static func < (lhs: FilePath, rhs: FilePath) -> Bool { lhs.bytes.lexicographicallyPrecedes(rhs.bytes) }
}
