import PhotoSource

/// `assetfs formats`: what a mount shows and what it skips, printed from the format table
/// (`SourceFormat.allCases`, each entry's facts) and the skip reasons (`SkipReason`); docs/manual.md carries the same text.
enum FormatsCommand {
    static let usage = """
        usage: assetfs formats
        The formats assetfs shows (recognised by content, never by name), and why other files are skipped.
        """

    static var text: String { text(of: SourceFormat.allCases) }

    /// The text for the registry `formats`.
    static func text(of formats: [SourceFormat]) -> String {
        var lines = ["shown (recognised by content, whatever the name; the usual extensions):"]
        for format in formats {
            let facts = format.facts
            let kind = facts.isVideo ? "video" : "photo"
            lines.append("  " + padded(kind, 6) + padded(facts.name, 23) + padded(facts.mimeType, 18) + wrapped(facts.extensions, from: 49))
        }
        lines.append("skipped (listed by 'assetfs skipped SOURCE', counted by 'assetfs stats' as skipped_<reason>):")
        for reason in SkipReason.allCases {
            lines.append("  " + padded(reason.rawValue, 15) + reason.explanation)
        }
        return lines.joined(separator: "\n")
    }

    private static func padded(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(1, width - text.count))
    }

    /// The extensions, as many a line as fit in 100 columns, the rest under the first.
    private static func wrapped(_ extensions: [String], from column: Int) -> String {
        var lines = [""]
        for name in extensions.map({ "." + $0 }) {
            if !lines[lines.count - 1].isEmpty && column + lines[lines.count - 1].count + 1 + name.count > 100 { lines.append("") }
            lines[lines.count - 1] += (lines[lines.count - 1].isEmpty ? "" : " ") + name
        }
        return lines.joined(separator: "\n" + String(repeating: " ", count: column))
    }
}
