/// The mounts this process sees (`/proc/self/mountinfo`), as bytes: mount points and sources
/// need not be UTF-8.
public enum MountTable {
    public struct Entry: Sendable, Equatable {
        public var mountpoint: [UInt8]
        public var type: [UInt8]
        public var source: [UInt8]
        /// The filesystem's device (`MAJ:MIN`), and the folder of it mounted here (`/` unless a bind mount).
        public var device: [UInt8] = []
        public var root: [UInt8] = []

        public init(mountpoint: [UInt8], type: [UInt8], source: [UInt8], device: [UInt8] = [], root: [UInt8] = []) {
            self.mountpoint = mountpoint
            self.type = type
            self.source = source
            self.device = device
            self.root = root
        }
    }

    /// Every mount, in the order the kernel lists them (a later one on the same point is on top).
    public static func entries() throws(Errno) -> [Entry] {
        return try OwnedFileDescriptor.openReadOnly(FilePath("/proc/self/mountinfo")).readToEnd().split(separator: UInt8(ascii: "\n")).compactMap(parse)
    }

    /// Every mount point.
    public static func mountPoints() throws(Errno) -> Set<FilePath> {
        Set(try entries().map { FilePath(bytes: $0.mountpoint) })
    }

    /// The topmost mount on `mountpoint`.
    public static func entry(at mountpoint: [UInt8]) -> Entry? {
        (try? entries())?.last { $0.mountpoint == mountpoint }
    }

    /// "ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS [OPTIONAL...] - TYPE SOURCE SUPEROPTIONS".
    static func parse(_ line: ArraySlice<UInt8>) -> Entry? {
        let fields = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        guard fields.count > 6, let dash = fields[6...].firstIndex(where: { $0.elementsEqual([UInt8(ascii: "-")]) }),
              dash + 2 < fields.count else { return nil }
        return Entry(mountpoint: unescaped(fields[4]), type: Array(fields[dash + 1]), source: unescaped(fields[dash + 2]),
                     device: Array(fields[2]), root: unescaped(fields[3]))
    }

    /// The kernel writes space, tab, newline and backslash in a path as `\` and three octal digits.
    static func unescaped(_ field: ArraySlice<UInt8>) -> [UInt8] {
        var result: [UInt8] = []
        var i = field.startIndex
        while i < field.endIndex {
            let digits = field[(i + 1)..<min(i + 4, field.endIndex)]
            if field[i] == UInt8(ascii: "\\"), digits.count == 3, (0x30...0x33).contains(digits.first!),
               digits.allSatisfy({ (0x30...0x37).contains($0) }) {
                result.append(digits.reduce(0) { $0 * 8 + ($1 - 0x30) })
                i += 4
            } else {
                result.append(field[i])
                i += 1
            }
        }
        return result
    }
}
