import Catalog
import Posix

/// `assetfs skipped [-0] [-o OPTS] SOURCE`: the files of SOURCE that are not shown, and why (as
/// the catalog a mount of SOURCE keeps has them), one per line: `reason<TAB>path`, the path quoted
/// as `ls -b` does (a name may hold a newline or a tab); with `-0`, raw and ended by a NUL.
struct SkippedCommand {
    static let usage = """
        usage: assetfs skipped [-0] [-o OPTIONS] SOURCE
        The files of SOURCE a mount does not show, one per line: the reason, a tab, the path
        (quoted as 'ls -b' does: \\n, \\t, \\ , \\\\, \\ooo). -0: raw paths, each line ended by NUL.
        """
    let arguments: ListingArguments

    init(arguments: [String]) throws(UsageError) {
        self.arguments = try ListingArguments(arguments, command: "skipped", usage: Self.usage, acceptsMountpoint: false)
    }

    /// `bytes` as `ls -b` (escape) shows them: C escapes for controls, backslash and space, octal
    /// for other bytes that are not printable or not UTF-8. `spaces: false` leaves spaces (a
    /// sentence, where only a tab or a line break would mislead).
    static func escaped(_ bytes: [UInt8], spaces: Bool = true) -> [UInt8] {
        var named: [UInt8: UInt8] = [0x07: 0x61, 0x08: 0x62, 0x09: 0x74, 0x0A: 0x6E, 0x0B: 0x76, 0x0C: 0x66, 0x0D: 0x72, 0x5C: 0x5C]
        if spaces { named[0x20] = 0x20 }
        var result: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if let letter = named[byte] {
                result += [0x5C, letter]
            } else if byte < 0x20 || byte == 0x7F {
                result += Self.octal(byte)
            } else if byte < 0x80 {
                result.append(byte)
            } else {
                // A whole valid UTF-8 sequence prints as is; a stray byte as octal.
                let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
                let sequence = Array(bytes[index..<min(bytes.count, index + length)])
                if length > 1, sequence.count == length, String(validating: sequence, as: UTF8.self) != nil {
                    result += sequence
                    index += length
                    continue
                }
                result += Self.octal(byte)
            }
            index += 1
        }
        return result
    }

    private static func octal(_ byte: UInt8) -> [UInt8] {
        [0x5C, 0x30 + (byte >> 6), 0x30 + ((byte >> 3) & 7), 0x30 + (byte & 7)]
    }

    func run() throws(UsageError) -> Int32 {
        let realSource = try arguments.scannedSource(), configuration = arguments.configuration
        let catalog = configuration.catalogOpener(for: realSource)()
        var output: [UInt8] = []
        catalog.read { $0.forEachSkipped { path, reason in
            let full = realSource.appending(path).bytes
            output += Array(reason.rawValue.utf8) + [0x09] + (arguments.nulTerminated ? full + [0] : Self.escaped(full) + [0x0A])
            if output.count > 1 << 16 {
                try? FileDescriptor.standardOutput.writeAll(output)
                output = []
            }
        } }
        try? FileDescriptor.standardOutput.writeAll(output)
        return 0
    }
}
