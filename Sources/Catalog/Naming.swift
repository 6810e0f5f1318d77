import PhotoSource

/// How source names become names in the mount. Everything works on bytes: a name that is not
/// valid UTF-8 stays exactly what it was.
public enum Naming {
    static let fullwidthSolidus: [UInt8] = [0xEF, 0xBC, 0x8F]     // U+FF0F, stands for "/"
    static let reversedQuote: [UInt8] = [0xE2, 0x80, 0x9B]        // U+201B, escapes a literal one (as rclone does)

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

    /// The asset folder names of one album's files, a function of the files alone (not of the
    /// order they came in, nor of what the album showed before): `candidateNames`, made unique
    /// (`deduplicated`) in the order of their file names, movies last, so a still keeps its name
    /// before a Live Photo's movie (hidden once paired) takes one.
    static func assetNames(files: [(name: [UInt8], format: SourceFormat)], reserved: [[UInt8]]) -> [[UInt8]] {
        let candidates = candidateNames(files: files, reserved: reserved)
        // The candidates clash only when cut to 255 bytes or reserved: mostly there is nothing to order.
        var taken = Set(reserved.map(Key.init))
        let fittedNames = candidates.map { fitted($0) }
        if fittedNames.allSatisfy({ taken.insert(Key($0)).inserted }) { return fittedNames }
        let order = files.indices.sorted { a, b in
            let (movieA, movieB) = (files[a].format == .quickTime, files[b].format == .quickTime)
            return movieA != movieB ? movieB : files[a].name.lexicographicallyPrecedes(files[b].name)
        }
        var result = candidates
        for (index, name) in zip(order, deduplicated(order.map { candidates[$0] }, reserved: reserved)) { result[index] = name }
        return result
    }

    /// Each file's wanted name: the stem, unless it equals another file's stem or full name, or
    /// one of `reserved` (the poster's name); then the full file name. One exception: a still and
    /// a QuickTime movie alone with one stem (`IMG_1234.HEIC` and `IMG_1234.MOV`, how Apple
    /// exports a Live Photo, shown as one asset once paired) leave the stem to the still.
    static func candidateNames(files: [(name: [UInt8], format: SourceFormat)], reserved: [[UInt8]]) -> [[UInt8]] {
        let stems = files.map { stem($0.name) }
        var byStem: [Key: [SourceFormat]] = [:]
        for (file, name) in zip(files, stems) { byStem[Key(name), default: []].append(file.format) }
        let fullNames = Set(files.map { Key($0.name) })
        return zip(files, stems).map { file, candidate in
            let sharing = byStem[Key(candidate), default: []]
            let liveStill = sharing.count == 2 && file.format.mayHoldMotion && sharing.contains(.quickTime)
            let clashes = (sharing.count > 1 && !liveStill) || (candidate != file.name && fullNames.contains(Key(candidate))) || reserved.contains(candidate)
            return clashes ? file.name : candidate
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
