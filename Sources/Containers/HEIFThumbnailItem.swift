import Posix

/// A HEIF's largest thumbnail item (an item with a `thmb` reference to the primary item), and the
/// edits that make a decoder read it as the file's primary image: the `pitm` box names it, and the
/// `iref` box becomes a `free` box, so no item refers to another. Neither changes a size or an
/// offset. What a photo shows when libheif cannot decode its primary image, or cannot read its
/// item references at all (libheif 1.15 refuses iOS 18's shared auxiliary images whole).
public struct HEIFThumbnailItem: Sendable {
    /// Its `ispe` as shown (after its own `clap` and `irot`).
    public let size: PixelSize
    /// (offset in the file, bytes to read there instead).
    public let edits: [(offset: Int64, bytes: [UInt8])]

    public init?(file: FileDescriptor) {
        guard let meta = HEIFMeta(file: file), let iref = meta.box("iref"), let iprp = meta.box("iprp") else { return nil }
        let sized = HEIFItems.items(referencing: meta.primary, as: "thmb", iref).compactMap { id in
            HEIFItems.shownSize(of: id, iprp).map { (id: id, size: $0) }
        }
        guard let largest = sized.max(by: { $0.size.width * $0.size.height < $1.size.width * $1.size.height }) else { return nil }
        let idSize = meta.pitm.version == 0 ? 2 : 4
        guard largest.id < 1 << (8 * idSize), let irefType = Self.typeOffset(of: iref, in: meta) else { return nil }
        let id = (0..<idSize).map { UInt8(truncatingIfNeeded: largest.id >> (8 * (idSize - 1 - $0))) }
        size = largest.size
        edits = [(meta.fileOffset(of: meta.pitm) + 4, id), (irefType, Array("free".utf8))]
    }

    /// Where the type of the box whose content is `body` lies in the file (its header is 8 bytes,
    /// or 16 with a 64-bit size).
    private static func typeOffset(of body: ISOBoxContent, in meta: HEIFMeta) -> Int64? {
        let start = body.bytes.startIndex
        return [start - 4, start - 12].first { $0 >= 0 && meta.bytes[$0..<$0 + 4].elementsEqual("iref".utf8) }
            .map { meta.offset + Int64($0) }
    }
}
