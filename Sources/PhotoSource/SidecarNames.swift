/// The files that keep a photo's date and place beside it rather than in it, and how they are
/// named: XMP sidecars of Lightroom, darktable and digiKam (`IMG_1234.xmp`, `IMG_1234.CR2.xmp`),
/// and the JSON of a Google Takeout export (`IMG_1234.jpg.json`,
/// `IMG_1234.jpg.supplemental-metadata.json`), with Takeout's quirks: `.supplemental-metadata`
/// cut anywhere (`.supplemental-metad.json`, `.suppl.json`), the name before `.json` cut to 46
/// characters (51 with `.json`) or not at all, `IMG_1234(1).jpg` paired with
/// `IMG_1234.jpg(1).json`, and an `IMG_1234-edited.jpg` sharing its original's. (A JSON named
/// otherwise is found by its `title`.) Apple's `.AAE` edit lists are sidecars too, though
/// they keep no date or place.
public enum SidecarNames {
    static let xmp = Array(".xmp".utf8), json = Array(".json".utf8), aae = Array(".aae".utf8)
    static let supplemental = Array(".supplemental-metadata".utf8)
    /// What Takeout adds to the name of an edited copy, by the language of the account.
    static let edited = ["-edited", "-bearbeitet", "-modifié", "-editado", "-modificato", "-編集済み"].map { Array($0.utf8) }
    /// Takeout cuts the name before `.json` to this many characters.
    static let takeoutNameLimit = 46

    /// Whether a file named `name` is a sidecar (listed as one, never sniffed as a photo): a name
    /// before the extension (`b.xmp` is one, `.xmp` alone is not).
    public static func isSidecar(_ name: [UInt8]) -> Bool {
        let lower = name.asciiLowercased
        return [xmp, json, aae].contains { lower.count > $0.count && lower.hasSuffix($0) }
    }

    /// Whether a sidecar named `name` may be a Takeout JSON (whose `title` names its photo).
    public static func isJSON(_ name: [UInt8]) -> Bool { name.asciiLowercased.hasSuffix(json) }

    /// The names a sidecar of the photo `fileName` may have, in the order they are tried: XMP
    /// first (its own format's dates), then Takeout's, longest first.
    public static func candidates(for fileName: [UInt8]) -> [[UInt8]] {
        let dot = fileName.lastIndex(of: UInt8(ascii: ".")) ?? fileName.endIndex
        var stem = Array(fileName[..<dot]), suffix = Array(fileName[dot...])
        var names = [stem + xmp, stem + Array(".XMP".utf8), fileName + xmp, fileName + Array(".XMP".utf8)]
        // "IMG_1234(1)" → "IMG_1234" and "(1)", which Takeout puts before ".json".
        var duplicate: [UInt8] = []
        if stem.last == UInt8(ascii: ")"), let open = stem.lastIndex(of: UInt8(ascii: "(")),
           open > 0, stem[(open + 1)..<(stem.count - 1)].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), open + 1 < stem.count - 1 {
            duplicate = Array(stem[open...])
            stem = Array(stem[..<open])
        }
        let originals = [stem + suffix] + edited.filter { stem.hasSuffix($0) }.map { Array(stem.dropLast($0.count)) + suffix }
        for original in originals {
            let supplements = (0...supplemental.count).reversed().map { original + supplemental[..<$0] }
            for base in supplements + [Array(original[..<(original.lastIndex(of: UInt8(ascii: ".")) ?? original.count)])] {
                names.append(base + duplicate + json)
                names.append(cutAsTakeout(base) + duplicate + json)
            }
        }
        var seen = Set<[UInt8]>()
        return names.filter { seen.insert($0).inserted }
    }

    /// The first 46 characters (UTF-8 sequences kept whole; bytes where it is not UTF-8).
    static func cutAsTakeout(_ name: [UInt8]) -> [UInt8] {
        var characters = 0, end = 0
        while end < name.count, characters < takeoutNameLimit {
            let byte = name[end]
            let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
            end = min(name.count, end + length)
            characters += 1
        }
        return Array(name[..<end])
    }
}
