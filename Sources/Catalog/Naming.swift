/// How source names become names in the mount. Everything works on bytes: a name that is not
/// valid UTF-8 stays exactly what it was.
public enum Naming {
    static let fullwidthSolidus: [UInt8] = [0xEF, 0xBC, 0x8F]     // U+FF0F, stands for "/"
    static let reversedQuote: [UInt8] = [0xE2, 0x80, 0x9B]        // U+201B, escapes a literal one (as rclone does)
    static let poster = Array("thumbnail.jpg".utf8)

    /// `2023/Trip` → `2023／Trip`. A real U+FF0F (or U+201B) in a folder name is prefixed with
    /// U+201B, so two different paths never map to one name.
    static func albumName(components: [[UInt8]]) -> [UInt8] {
        var result: [UInt8] = []
        for (index, component) in components.enumerated() {
            if index > 0 { result += fullwidthSolidus }
            var i = 0
            while i < component.count {
                let rest = component[i...]
                if rest.starts(with: fullwidthSolidus) || rest.starts(with: reversedQuote) { result += reversedQuote }
                result.append(component[i])
                i += 1
            }
        }
        return result
    }

    /// `IMG_0001.JPG` → `IMG_0001`; names without an extension (or dot-first) are their own stem.
    static func stem(_ fileName: [UInt8]) -> [UInt8] {
        guard let dot = fileName.lastIndex(of: UInt8(ascii: ".")), dot > 0 else { return fileName }
        return Array(fileName[..<dot])
    }

    /// Asset folder names for the files of one album: the stem, unless it equals another file's
    /// stem or full name, or `thumbnail.jpg`; then the full file name. Independent of order.
    static func assetNames(fileNames: [[UInt8]]) -> [[UInt8]] {
        let stems = fileNames.map(stem)
        var stemCounts: [Key: Int] = [:]
        for name in stems { stemCounts[Key(name), default: 0] += 1 }
        let fullNames = Set(fileNames.map(Key.init))
        return zip(fileNames, stems).map { name, candidate in
            let clashes = stemCounts[Key(candidate), default: 0] > 1 || (candidate != name && fullNames.contains(Key(candidate))) || candidate == poster
            return clashes ? name : candidate
        }
    }

    /// Makes names unique and fits them in 255 bytes (`fitted`): the first in the given order
    /// keeps its name, later ones get ` (2)`, ` (3)`…, skipping any suffixed name already taken,
    /// and never `reserved`. A suffixed name is cut shorter to leave room for its suffix.
    static func deduplicated(_ names: [[UInt8]], reserved: [[UInt8]] = []) -> [[UInt8]] {
        let fittedNames = names.map { fitted($0) }
        let wanted = Set(fittedNames.map(Key.init))
        var taken = Set(reserved.map(Key.init))
        return zip(names, fittedNames).map { name, fittedName in
            if taken.insert(Key(fittedName)).inserted { return fittedName }
            func numbered(_ n: Int) -> Key {
                let suffix = Array(" (\(n))".utf8)
                return Key(fitted(name, limit: maxNameBytes - suffix.count) + suffix)
            }
            var n = 2
            while taken.contains(numbered(n)) || wanted.contains(numbered(n)) { n += 1 }
            taken.insert(numbered(n))
            return numbered(n).bytes
        }
    }

    /// A name as a set or dictionary key, hashed as one run of bytes: `[UInt8]`'s own hashing
    /// feeds the hasher a byte at a time, which was a sixth of a first scan's catalog writing.
    struct Key: Hashable {
        let bytes: [UInt8]
        init(_ bytes: [UInt8]) { self.bytes = bytes }
        func hash(into hasher: inout Hasher) { bytes.withUnsafeBytes { hasher.combine(bytes: $0) } }
    }
}
