/// The names that make an edit and its original a pair, in one folder: an iPhone export's
/// `IMG_E0003.JPG` is the edit of `IMG_0003.<any>`, Takeout's `IMG_1234-edited.jpg` the edit of
/// `IMG_1234.<any>` (an edit is often a JPEG of a HEIC). Names only: `pairEdit` confirms by content.
enum EditNames {
    /// A stem (a name without its extension) a partner of the file `name` would have, and
    /// whether `name` is the edit of that partner (else its original).
    struct Partner: Equatable {
        var stem: [UInt8]
        var isEdit: Bool
    }

    static let takeoutSuffix = Array("-edited".utf8)

    /// The partners the file `name` may have: one original for an edit's name; for another
    /// name, the edits it may have.
    static func partners(of name: [UInt8]) -> [Partner] {
        guard let dot = name.lastIndex(of: UInt8(ascii: ".")), dot > 0 else { return [] }
        let stem = Array(name[..<dot])
        if stem.count > takeoutSuffix.count, stem.suffix(takeoutSuffix.count).elementsEqual(takeoutSuffix) {
            return [Partner(stem: Array(stem.dropLast(takeoutSuffix.count)), isEdit: true)]
        }
        if let (prefix, digits, edited) = phoneParts(stem) {
            if edited { return [Partner(stem: prefix + [UInt8(ascii: "_")] + digits, isEdit: true)] }
            return [Partner(stem: prefix + Array("_E".utf8) + digits, isEdit: false), Partner(stem: stem + takeoutSuffix, isEdit: false)]
        }
        return [Partner(stem: stem + takeoutSuffix, isEdit: false)]
    }

    /// `IMG_0003` as (`IMG`, `0003`, false), `IMG_E0003` as (`IMG`, `0003`, true): letters, an
    /// underscore, an E for an edit, digits.
    private static func phoneParts(_ stem: [UInt8]) -> (prefix: [UInt8], digits: [UInt8], edited: Bool)? {
        guard let underscore = stem.firstIndex(of: UInt8(ascii: "_")), underscore > 0,
              stem[..<underscore].allSatisfy({ (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }) else { return nil }
        var rest = stem[(underscore + 1)...]
        let edited = rest.first == UInt8(ascii: "E")
        if edited { rest = rest.dropFirst() }
        guard !rest.isEmpty, rest.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
        return (Array(stem[..<underscore]), Array(rest), edited)
    }

    /// Whether the file `name` has stem `stem` and one extension.
    static func name(_ name: [UInt8], hasStem stem: [UInt8]) -> Bool {
        name.count > stem.count + 1 && name.starts(with: stem) && name[stem.count] == UInt8(ascii: ".")
            && !name[(stem.count + 1)...].contains(UInt8(ascii: "."))
    }
}
