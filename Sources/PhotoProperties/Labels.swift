/// A photo's keywords and people as its tools wrote them, gathered from every place one read
/// finds them (XMP, IPTC, a sidecar), then made one list each, deduplicated:
/// - a hierarchical keyword ("Places|France|Paris") is a path; one under a top "People" names a
///   person (its last part), as digiKam files face tags (and writes them to Lightroom's list too);
/// - a flat keyword that is a part of some path is that path's (Lightroom and digiKam write each
///   keyword, and Lightroom its parents, flat beside the hierarchy), and one that is a person's
///   name is that person;
/// - a path that begins another ("Places|France" beside "Places|France|Paris", as digiKam's
///   TagsList lists every level) is the longer one's.
/// Names are kept as written (a `/`, a NUL, 300 bytes: the catalog's Naming makes folder names of
/// them), their ends' white space trimmed. Bounded against odd input: at most `maxEntries` of
/// each kind, a name of at most `maxNameBytes` (longer ones are dropped), `maxDepth` levels (the
/// rest cut).
struct Labels {
    private var flat: [String] = []
    private var paths: [[String]] = []
    private var people: [String] = []

    static let maxEntries = 4096
    static let maxNameBytes = 1024
    static let maxDepth = 32
    static let peopleBranch = "People"

    mutating func addKeyword(_ text: [UInt8]) {
        guard flat.count < Self.maxEntries, let name = Self.name(text[...]) else { return }
        flat.append(name)
    }

    /// A hierarchical keyword, its levels split at `separator` (empty levels are none), cut to
    /// `maxDepth`.
    mutating func addPath(_ text: [UInt8], separator: UInt8) {
        let path = text.split(separator: separator, omittingEmptySubsequences: true).compactMap(Self.name).prefix(Self.maxDepth)
        guard !path.isEmpty else { return }
        if path.first == Self.peopleBranch {
            if path.count > 1, let last = path.last { addPerson(Array(last.utf8)) }
        } else if paths.count < Self.maxEntries {
            paths.append(Array(path))
        }
    }

    mutating func addPerson(_ text: [UInt8]) {
        guard people.count < Self.maxEntries, let name = Self.name(text[...]) else { return }
        people.append(name)
    }

    /// Each person once, in the order first named.
    var uniquePeople: [String] {
        var seen = Set<String>()
        return people.filter { seen.insert($0).inserted }
    }

    /// The keywords as paths (a flat one is a path of one), deduplicated by the rules above, in
    /// the order first written (paths, then flat keywords).
    var keywords: [[String]] {
        let levels = Set(paths.joined()), persons = Set(people)
        var prefixes = Set<[String]>()
        for path in paths { for length in 1..<path.count { prefixes.insert(Array(path.prefix(length))) } }
        var seen = Set<[String]>()
        let candidates = paths + flat.filter { !levels.contains($0) && !persons.contains($0) }.map { [$0] }
        return candidates.filter { !prefixes.contains($0) && seen.insert($0).inserted }
    }

    /// A name as written, its ends' white space trimmed; nil when empty or longer than `maxNameBytes`.
    static func name(_ text: ArraySlice<UInt8>) -> String? {
        let trimmed = text.drop(while: XMPPacket.whitespace.contains).reversed().drop(while: XMPPacket.whitespace.contains).reversed()
        guard !trimmed.isEmpty, trimmed.count <= maxNameBytes else { return nil }
        return String(decoding: Array(trimmed), as: UTF8.self)
    }

    /// Stars from a Windows rating percent, as the Windows shell reads `MicrosoftPhoto:Rating`
    /// (propkey.h: 1-12 one star, 13-37 two, 38-62 three, 63-87 four, 88-99 five; it writes 1, 25,
    /// 50, 75, 99); 0 is unrated, and 100 is taken as five. Nil outside 0-100.
    static func stars(percent: Double) -> Int? {
        let percent = percent.rounded()
        guard (0...100).contains(percent) else { return nil }
        return [0, 1, 13, 38, 63, 88].lastIndex { Double($0) <= percent }
    }
}
