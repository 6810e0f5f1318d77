/// The mounts this process sees (`/proc/self/mountinfo`).
public enum MountTable {
    /// Every mount point, octal escapes (`\040` for a space…) undone, as bytes.
    public static func mountPoints() throws(Errno) -> Set<FilePath> {
        let file = try FileDescriptor.openReadOnly(FilePath("/proc/self/mountinfo"))
        defer { file.close() }
        let text = try file.readToEnd()
        // "36 35 98:0 /root /mnt/point rw,… - type source options": the 5th field.
        return Set(text.split(separator: UInt8(ascii: "\n")).compactMap { line in
            let fields = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
            return fields.count > 4 ? FilePath(bytes: unescaped(fields[4])) : nil
        })
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
