import Posix

/// What a HEIC's or AVIF's properties need from its `meta` box: the primary item's size as shown,
/// its Exif item and its XMP item. Read here rather than through libheif, which (1.15) reads the
/// data of every item, the whole file, when it opens one. Bounded: the `meta` box up to 16 MiB
/// (tens of KiB in practice), each metadata item up to 4 MiB; anything malformed reads as absent.
public struct HEIFItems {
    /// The primary item's `ispe`, cropped by `clap` and turned by `irot` as the item's
    /// properties say, in their order: the size libheif shows (and renditions are made at).
    public var shownSize: PixelSize?
    /// The Exif item as stored: a 4-byte big-endian offset to the TIFF header, then the block.
    public var exifItem: [UInt8]?
    /// The XMP packet: a `mime` item of content type application/rdf+xml.
    public var xmpItem: [UInt8]?

    static let maxItemBytes = 4 << 20

    public init(file: FileDescriptor) {
        guard let meta = HEIFMeta(file: file) else { return }
        let primary = meta.primary
        if let iprp = meta.box("iprp") { shownSize = Self.shownSize(of: primary, iprp) }
        let infos = meta.box("iinf").map(Self.itemInfos) ?? []
        let describing = meta.box("iref").map { Self.items(referencing: primary, as: "cdsc", $0) } ?? []
        func data(ofFirst kind: (ItemInfo) -> Bool) -> [UInt8]? {
            let ids = infos.filter(kind).map(\.id)
            guard let id = ids.first(where: describing.contains) ?? ids.first, let iloc = meta.box("iloc") else { return nil }
            return Self.data(of: id, iloc, idat: meta.box("idat"), file: file)
        }
        exifItem = data { $0.type == "Exif" }
        xmpItem = data { $0.type == "mime" && $0.contentType == "application/rdf+xml" }
    }

    struct ItemInfo {
        var id: Int
        var type: String
        /// A `mime` item's content type.
        var contentType: String?
    }

    /// The item info entries (of version 2 or 3): id, type, then a NUL-ended name and, for
    /// `mime` items, a NUL-ended content type.
    static func itemInfos(_ iinf: ISOBoxContent) -> [ItemInfo] {
        iinf.children(from: iinf.version == 0 ? 6 : 8).compactMap { entry in
            let infe = entry.body, idSize = infe.version == 2 ? 2 : 4
            guard entry.type == "infe", infe.version >= 2, let id = infe.number(at: 4, size: idSize),
                  let type = infe.fourCC(at: 4 + idSize + 2) else { return nil }
            var info = ItemInfo(id: id, type: type)
            if type == "mime", let rest = infe.bytes(at: 4 + idSize + 6, count: max(0, infe.bytes.count - (4 + idSize + 6))),
               let nameEnd = rest.firstIndex(of: 0) {
                let content = rest[(nameEnd + 1)...]
                info.contentType = String(decoding: content.prefix { $0 != 0 }, as: UTF8.self)
            }
            return info
        }
    }

    /// The items with a reference of `type` to `item`: `cdsc` (content describes), `thmb` (a
    /// thumbnail of).
    static func items(referencing item: Int, as type: String, _ iref: ISOBoxContent) -> [Int] {
        references(as: type, iref).filter { $0.to.contains(item) }.map(\.from)
    }

    /// The items `item` refers to with a reference of `type`: `dimg` (derived from: a grid's tiles).
    static func targets(of item: Int, as type: String, _ iref: ISOBoxContent) -> [Int] {
        references(as: type, iref).filter { $0.from == item }.flatMap(\.to)
    }

    /// The references of `type` in `iref`: each from one item to others.
    private static func references(as type: String, _ iref: ISOBoxContent) -> [(from: Int, to: [Int])] {
        let idSize = iref.version == 0 ? 2 : 4
        return iref.children(from: 4).compactMap { reference in
            guard reference.type == type, let from = reference.body.number(at: 0, size: idSize),
                  let count = reference.body.number(at: idSize, size: 2) else { return nil }
            return (from, (0..<count).compactMap { reference.body.number(at: idSize + 2 + $0 * idSize, size: idSize) })
        }
    }

    /// The size `item` is shown at, from the properties `ipma` associates with it in `ipco`.
    static func shownSize(of item: Int, _ iprp: ISOBoxContent) -> PixelSize? {
        let children = iprp.children(from: 0)
        guard let properties = children.first(where: { $0.type == "ipco" })?.body.children(from: 0),
              let ipma = children.first(where: { $0.type == "ipma" })?.body, let count = ipma.number(at: 4, size: 4) else { return nil }
        let idSize = ipma.version < 1 ? 2 : 4, indexSize = ipma.flags & 1 == 1 ? 2 : 1
        var at = 8, size: PixelSize?
        for _ in 0..<min(count, 100_000) {
            guard let id = ipma.number(at: at, size: idSize), let associations = ipma.number(at: at + idSize, size: 1) else { return nil }
            at += idSize + 1
            defer { at += associations * indexSize }
            guard id == item else { continue }
            for k in 0..<associations {
                guard let association = ipma.number(at: at + k * indexSize, size: indexSize) else { return nil }
                let index = association & (indexSize == 2 ? 0x7FFF : 0x7F)
                guard index >= 1, index <= properties.count else { continue }
                let property = properties[index - 1].body
                switch properties[index - 1].type {
                case "ispe":
                    if let width = property.number(at: 4, size: 4), let height = property.number(at: 8, size: 4) { size = PixelSize(width: width, height: height) }
                case "clap":
                    let fraction = { (at: Int) -> Int? in
                        guard let n = property.number(at: at, size: 4), let d = property.number(at: at + 4, size: 4), d > 0 else { return nil }
                        return (n + d / 2) / d
                    }
                    if let current = size, let width = fraction(0), let height = fraction(8),
                       (1...current.width).contains(width), (1...current.height).contains(height) {
                        size = PixelSize(width: width, height: height)
                    }
                case "irot":
                    if let angle = property.number(at: 0, size: 1), angle & 1 == 1 { size = size?.transposed }
                default: break
                }
            }
            return size
        }
        return nil
    }

    /// The data of `item` as `iloc` locates it: extents in the file (construction method 0) or in
    /// `idat` (1), concatenated; at most 4 MiB.
    static func data(of item: Int, _ iloc: ISOBoxContent, idat: ISOBoxContent?, file: FileDescriptor) -> [UInt8]? {
        guard let extents = extents(of: item, iloc), extents.reduce(0, { $0 + $1.length }) <= maxItemBytes else { return nil }
        var data: [UInt8] = []
        for extent in extents {
            let bytes = extent.inIdat ? idat?.bytes(at: extent.start, count: extent.length).map(Array.init)
                                      : try? file.read(upTo: extent.length, at: Int64(extent.start))
            guard let bytes, bytes.count == extent.length else { return nil }
            data += bytes
        }
        return data
    }

    /// Where `iloc` says the data of `item` lies: each extent's start and length, in the file or
    /// (construction method 1) in `idat`'s content; nil if it names another method or is malformed.
    static func extents(of item: Int, _ iloc: ISOBoxContent) -> [(inIdat: Bool, start: Int, length: Int)]? {
        let version = iloc.version
        guard let sizes = iloc.number(at: 4, size: 2), version <= 2 else { return nil }
        let offsetSize = sizes >> 12, lengthSize = sizes >> 8 & 0xF, baseSize = sizes >> 4 & 0xF
        let indexSize = version == 0 ? 0 : sizes & 0xF, idSize = version < 2 ? 2 : 4
        guard let count = iloc.number(at: 6, size: version < 2 ? 2 : 4) else { return nil }
        var at = version < 2 ? 8 : 10
        for _ in 0..<min(count, 100_000) {
            guard let id = iloc.number(at: at, size: idSize) else { return nil }
            at += idSize
            var method = 0
            if version >= 1 {
                guard let field = iloc.number(at: at, size: 2) else { return nil }
                method = field & 0xF
                at += 2
            }
            guard let base = iloc.number(at: at + 2, size: baseSize), let extents = iloc.number(at: at + 2 + baseSize, size: 2) else { return nil }
            at += 2 + baseSize + 2
            let extentSize = indexSize + offsetSize + lengthSize
            defer { at += extents * extentSize }
            guard id == item else { continue }
            guard method <= 1 else { return nil }
            var result: [(inIdat: Bool, start: Int, length: Int)] = []
            for k in 0..<extents {
                let extent = at + k * extentSize + indexSize
                guard let offset = iloc.number(at: extent, size: offsetSize), let length = iloc.number(at: extent + offsetSize, size: lengthSize),
                      length > 0 else { return nil }
                let (start, overflow) = base.addingReportingOverflow(offset)
                guard !overflow else { return nil }
                result.append((method == 1, start, length))
            }
            return result
        }
        return nil
    }
}

/// A HEIF's `meta` box, read whole (bounded: 16 MiB; tens of KiB in practice), and where it lies.
struct HEIFMeta {
    /// The box, header included, and its offset in the file.
    let bytes: [UInt8]
    let offset: Int64
    /// Its child boxes (pitm, iinf, iref, iprp, iloc, idat, ...).
    let boxes: [(type: String, body: ISOBoxContent)]
    /// The primary item's id, and the `pitm` box that gives it.
    let primary: Int
    let pitm: ISOBoxContent

    static let maxBytes = 16 << 20

    init?(file: FileDescriptor) {
        var found: (bytes: [UInt8], offset: Int64)?
        ISOBaseMediaFile.walkTopLevelBoxes(of: file) { box in
            if box.type == "meta", found == nil {
                found = ISOBaseMediaFile.read(box, from: file, limit: Self.maxBytes).map { ($0, box.offset) }
            }
        }
        guard let found, let boxes = ISOBoxContent(found.bytes[...]).children(from: 0).first?.body.children(from: 4) else { return nil }
        (bytes, offset, self.boxes) = (found.bytes, found.offset, boxes)
        guard let pitm = boxes.first(where: { $0.type == "pitm" })?.body,
              let primary = pitm.number(at: 4, size: pitm.version == 0 ? 2 : 4) else { return nil }
        (self.pitm, self.primary) = (pitm, primary)
    }

    func box(_ type: String) -> ISOBoxContent? { boxes.first { $0.type == type }?.body }

    /// Where `body` (a part of this box) starts in the file.
    func fileOffset(of body: ISOBoxContent) -> Int64 { offset + Int64(body.bytes.startIndex) }
}
