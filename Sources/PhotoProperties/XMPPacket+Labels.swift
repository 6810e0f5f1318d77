/// What people and their tools labelled a photo with in its XMP packet: keywords flat
/// (`dc:subject`) and hierarchical (`lr:hierarchicalSubject` "a|b|c", `digiKam:TagsList` "a/b/c"),
/// the names of its face regions (the Metadata Working Group's `mwg-rs:RegionList` items of type
/// Face or of no type, Microsoft Photo's `MPRI:Regions` items' `MPReg:PersonDisplayName`), and
/// its rating (`xmp:Rating`, else `MicrosoftPhoto:Rating`'s percent). Lists are the `rdf:li`
/// items of the property's `rdf:Bag` or `rdf:Seq`; each search is linear in the packet.
extension XMPPacket {
    static let subject = Property(namespace: "http://purl.org/dc/elements/1.1/", name: "subject", usualPrefix: "dc")
    static let hierarchicalSubject = Property(namespace: "http://ns.adobe.com/lightroom/1.0/", name: "hierarchicalSubject", usualPrefix: "lr")
    static let tagsList = Property(namespace: "http://www.digikam.org/ns/1.0/", name: "TagsList", usualPrefix: "digiKam")
    static let regionList = Property(namespace: mwgRegions, name: "RegionList", usualPrefix: "mwg-rs")
    static let regionName = Property(namespace: mwgRegions, name: "Name", usualPrefix: "mwg-rs")
    static let regionType = Property(namespace: mwgRegions, name: "Type", usualPrefix: "mwg-rs")
    static let mwgRegions = "http://www.metadataworkinggroup.com/schemas/regions/"
    static let microsoftRegions = Property(namespace: "http://ns.microsoft.com/photo/1.2/t/RegionInfo#", name: "Regions", usualPrefix: "MPRI")
    static let personDisplayName = Property(namespace: "http://ns.microsoft.com/photo/1.2/t/Region#", name: "PersonDisplayName", usualPrefix: "MPReg")
    static let rating = Property(namespace: "http://ns.adobe.com/xap/1.0/", name: "Rating", usualPrefix: "xmp")
    /// Windows declares the namespace with a final slash, exiftool without: both begin so.
    static let microsoftRating = Property(namespace: "http://ns.microsoft.com/photo/1.0", name: "Rating", usualPrefix: "MicrosoftPhoto")
    static let listItem = Property(namespace: "http://www.w3.org/1999/02/22-rdf-syntax-ns#", name: "li", usualPrefix: "rdf")

    /// Adds the packet's keywords and people to `labels`.
    func gather(into labels: inout Labels) {
        for text in texts(of: Self.subject) { labels.addKeyword(text) }
        for text in texts(of: Self.hierarchicalSubject) { labels.addPath(text, separator: 0x7C) }  // |
        for text in texts(of: Self.tagsList) { labels.addPath(text, separator: 0x2F) }             // /
        for list in contents(of: Self.regionList) {
            for region in items(in: list) {
                let type = value(of: Self.regionType, in: region.element).map(Self.unescaped)
                guard type == nil || type == Array("Face".utf8), let name = value(of: Self.regionName, in: region.element).flatMap(Self.name) else { continue }
                labels.addPerson(name)
            }
        }
        for list in contents(of: Self.microsoftRegions) {
            for region in items(in: list) {
                if let name = value(of: Self.personDisplayName, in: region.element).flatMap(Self.name) { labels.addPerson(name) }
            }
        }
    }

    /// `xmp:Rating` (−1 rejected, 0 unrated, 1 to 5 stars; a real, rounded), else
    /// `MicrosoftPhoto:Rating` as Windows reads its percent (`Labels.stars(percent:)`); nil when
    /// neither is there or usable (a rating of 99 is not one).
    var rating: Int? {
        func number(_ property: Property) -> Double? {
            value(of: property).flatMap { $0.count > 64 ? nil : Double(String(decoding: Self.unescaped($0).filter { !Self.whitespace.contains($0) }, as: UTF8.self)) }
        }
        if let stars = number(Self.rating)?.rounded(), (-1...5).contains(stars) { return Int(stars) }
        return number(Self.microsoftRating).flatMap(Labels.stars(percent:))
    }

    /// The text of each item of every list `property` holds (items that hold elements are none).
    func texts(of property: Property) -> [[UInt8]] {
        contents(of: property).flatMap { items(in: $0) }.compactMap { item in
            guard item.content.count <= Self.maxEscapedName, !item.content.contains(0x3C) else { return nil }
            return Self.unescaped(item.content)
        }
    }

    /// A name's text unescaped, unless it is too long to be one even escaped (left unread).
    static func name(_ value: ArraySlice<UInt8>) -> [UInt8]? {
        value.count > maxEscapedName ? nil : unescaped(value)
    }

    /// The longest a name's text can be escaped (`&#x10FFFF;` for each of its 4-byte characters).
    static let maxEscapedName = 3 * Labels.maxNameBytes

    /// What each element `property` holds, between its start and end tags (an empty one, `<x/>`, holds nothing).
    func contents(of property: Property) -> [ArraySlice<UInt8>] {
        var result: [ArraySlice<UInt8>] = []
        for name in qualifiedNames(of: property) {
            var rest = bytes[...]
            while let found = rest.firstRange(ofBytes: [0x3C] + name) {
                rest = bytes[found.upperBound...]
                guard let next = rest.first, next == 0x3E || next == 0x2F || Self.whitespace.contains(next) else { continue }
                guard let tagEnd = rest.firstIndex(of: 0x3E) else { break }
                rest = bytes[(tagEnd + 1)...]
                if bytes[tagEnd - 1] == 0x2F { continue }
                guard let end = rest.firstRange(ofBytes: [0x3C, 0x2F] + name) else { break }
                result.append(bytes[(tagEnd + 1)..<end.lowerBound])
                rest = bytes[end.upperBound...]
            }
        }
        return result
    }

    /// An `rdf:li` item: the element from its start tag to its end tag, and what it holds.
    struct ListItem {
        var element: ArraySlice<UInt8>
        var content: ArraySlice<UInt8>
    }

    /// The outermost `rdf:li` items of `list` (an item may hold lists of its own), at most
    /// `Labels.maxEntries`: one pass over the item tags, paired by depth.
    func items(in list: ArraySlice<UInt8>) -> [ListItem] {
        var tags: [(start: Int, end: Int, opens: Bool, closes: Bool)] = []
        for name in qualifiedNames(of: Self.listItem) {
            var rest = list
            while let found = rest.firstRange(ofBytes: name) {
                rest = list[found.upperBound...]
                guard found.lowerBound > list.startIndex, let next = rest.first,
                      next == 0x3E || next == 0x2F || Self.whitespace.contains(next), let tagEnd = rest.firstIndex(of: 0x3E) else { continue }
                let isEnd = list[found.lowerBound - 1] == 0x2F && found.lowerBound - 1 > list.startIndex && list[found.lowerBound - 2] == 0x3C
                guard isEnd || list[found.lowerBound - 1] == 0x3C else { continue }
                let selfClosing = !isEnd && list[tagEnd - 1] == 0x2F
                tags.append((isEnd ? found.lowerBound - 2 : found.lowerBound - 1, tagEnd + 1, !isEnd, isEnd || selfClosing))
                rest = list[(tagEnd + 1)...]
            }
        }
        tags.sort { $0.start < $1.start }
        var result: [ListItem] = [], depth = 0, opened = (start: 0, contentStart: 0)
        for tag in tags {
            if tag.opens {
                if depth == 0 { opened = (tag.start, tag.end) }
                depth += 1
            }
            guard tag.closes, depth > 0 else { continue }
            depth -= 1
            guard depth == 0 else { continue }
            let content = tag.opens ? list[tag.end..<tag.end] : list[opened.contentStart..<tag.start]
            result.append(ListItem(element: list[opened.start..<tag.end], content: content))
            if result.count == Labels.maxEntries { break }
        }
        return result
    }
}
