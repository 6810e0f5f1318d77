import Posix

/// One of assetfs's own `-o` options, declared once: its name, the value it takes, what it does,
/// its default and how a value is applied. The parser (`Configuration`), `--help` (and the
/// manual's copy of it, docs/manual.md) and the manual page are all made from `MountOption.all`,
/// so an option cannot be accepted and ignored, nor documented with a default it does not have.
struct MountOption: Sendable {
    /// `cache_size`.
    let name: String
    /// `SIZE` in `cache_size=SIZE`; nil for a flag.
    let placeholder: String?
    /// What it does, one sentence or two, without its default.
    let summary: String
    /// Its default as users read it.
    let defaultValue: Default
    /// Sets a value given on the command line, or says why it cannot.
    let apply: @Sendable (inout Configuration, String) throws(UsageError) -> Void

    enum Default: Sendable, Equatable {
        /// A value the option takes, as it would be written (`1G`): giving it changes nothing.
        case value(String)
        /// A default that is a rule rather than one value (it depends on the machine or SOURCE).
        case rule(String)
        /// A flag, off unless given.
        case off

        var text: String? {
            switch self {
            case .value(let text), .rule(let text): text
            case .off: nil
            }
        }
    }

    /// The key, as `-o` writes it: `cache_size=SIZE`, or the flag's name.
    var usage: String { name + (placeholder.map { "=" + $0 } ?? "") }

    /// What it does with its default, as one text (the manual page's paragraph).
    var description: String { summary + (defaultValue.text.map { " (default \($0))" } ?? "") }

    /// `description` in lines of at most `width` characters, broken between words.
    func help(width: Int) -> [String] {
        var lines: [String] = []
        for word in description.split(separator: " ") {
            if let last = lines.last, last.count + 1 + word.count <= width {
                lines[lines.count - 1] = last + " " + word
            } else {
                lines.append(String(word))
            }
        }
        return lines
    }
}

extension MountOption {
    /// The keys `mount.fuse3` adds to every fstab mount: taken and overridden (the mount is always
    /// read-only, nodev, nosuid).
    static let mountHelperKeys: Set<String> = ["rw", "dev", "suid"]

    /// Every key the parser takes from `declarations`.
    static func keys(_ declarations: [MountOption] = all) -> Set<String> {
        Set(declarations.map(\.name)).union(mountHelperKeys)
    }

    /// The options as `--help` lists them, indented by `indent` spaces, the text in a column.
    static func helpLines(_ declarations: [MountOption] = all, indent: Int) -> [String] {
        let margin = String(repeating: " ", count: indent), column = 20
        return declarations.flatMap { option in
            let head = option.usage, help = option.help(width: 96 - indent - column)
            let first = head.count < column ? head + String(repeating: " ", count: column - head.count) : head + " "
            return [margin + first + help[0]] + help.dropFirst().map { margin + String(repeating: " ", count: column) + $0 }
        }
    }
}

// MARK: - The kinds of value, each parsed and checked in one place

extension MountOption {
    /// An option without a value, off by default.
    static func flag(_ name: String, _ summary: String, sets setting: WritableKeyPath<Configuration, Bool> & Sendable) -> MountOption {
        MountOption(name: name, placeholder: nil, summary: summary, defaultValue: .off) { configuration, _ in
            configuration[keyPath: setting] = true
        }
    }

    /// A whole number within `range`.
    static func number(_ name: String, _ placeholder: String, in range: ClosedRange<Int>, _ summary: String,
                       sets setting: WritableKeyPath<Configuration, Int> & Sendable) -> MountOption {
        MountOption(name: name, placeholder: placeholder, summary: summary,
                    defaultValue: .value(String(Configuration()[keyPath: setting]))) { configuration, text throws(UsageError) in
            guard let value = Int(text), range.contains(value) else {
                throw UsageError("-o \(name)=\(text): expected a number from \(range.lowerBound) to \(range.upperBound)")
            }
            configuration[keyPath: setting] = value
        }
    }

    /// A size in bytes, `512M`, `2G`, `1.5G` or `100000`; at least `minimum` where a smaller one
    /// cannot work (and `why`).
    static func size(_ name: String, atLeast minimum: Int64 = 1, why: String = "", _ summary: String, defaultValue: Default? = nil,
                     sets setting: WritableKeyPath<Configuration, Int64> & Sendable) -> MountOption {
        MountOption(name: name, placeholder: "SIZE", summary: summary,
                    defaultValue: defaultValue ?? .value(ByteSize.text(Configuration()[keyPath: setting]))) { configuration, text throws(UsageError) in
            guard let bytes = ByteSize.bytes(text) else { throw UsageError("-o \(name)=\(text): expected a size such as 512M or 2G") }
            guard bytes >= minimum else { throw UsageError("-o \(name)=\(text): at least \(ByteSize.text(minimum)) (\(why))") }
            configuration[keyPath: setting] = bytes
        }
    }

    /// A file; `~/` and relative paths are made absolute (a mount in the background changes its
    /// working folder).
    static func file(_ name: String, example: String, _ summary: String, defaultValue: Default,
                     sets setting: WritableKeyPath<Configuration, FilePath?> & Sendable) -> MountOption {
        MountOption(name: name, placeholder: "FILE", summary: summary, defaultValue: defaultValue) { configuration, text throws(UsageError) in
            guard !text.isEmpty else { throw UsageError("-o \(name) needs a file, e.g. -o \(name)=\(example)") }
            configuration[keyPath: setting] = Configuration.absolute(text)
        }
    }

    /// One of an enumeration's raw values.
    static func choice<Choice: RawRepresentable & CaseIterable & Sendable>(
        _ name: String, _ summary: String, sets setting: WritableKeyPath<Configuration, Choice> & Sendable
    ) -> MountOption where Choice.RawValue == String {
        let names = Choice.allCases.map(\.rawValue)
        return MountOption(name: name, placeholder: names.joined(separator: "|"), summary: summary,
                           defaultValue: .value(Configuration()[keyPath: setting].rawValue)) { configuration, text throws(UsageError) in
            guard let choice = Choice(rawValue: text) else {
                throw UsageError("-o \(name)=\(text): expected one of \(names.joined(separator: ", "))")
            }
            configuration[keyPath: setting] = choice
        }
    }
}

/// Sizes in bytes as users write them: `512M`, `2G`, `1.5G`, `100000` (binary units).
enum ByteSize {
    private static let units: [(letter: Character, bytes: Int64)] = [("T", 1 << 40), ("G", 1 << 30), ("M", 1 << 20), ("K", 1 << 10)]

    static func bytes(_ text: String) -> Int64? {
        var digits = Substring(text.uppercased())
        var unit: Int64 = 1
        if digits.last == "B" { digits = digits.dropLast() }
        if let last = digits.last, let found = units.first(where: { $0.letter == last }) { unit = found.bytes; digits = digits.dropLast() }
        guard let value = Double(digits), value > 0, value * Double(unit) < 9e18 else { return nil }
        return Int64(value * Double(unit))
    }

    /// The shortest exact form: `1G`, `512M`, `100000`.
    static func text(_ bytes: Int64) -> String {
        guard let unit = units.first(where: { bytes >= $0.bytes && bytes % $0.bytes == 0 }) else { return String(bytes) }
        return "\(bytes / unit.bytes)\(unit.letter)"
    }
}
