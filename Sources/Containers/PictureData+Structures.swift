import Posix

extension PictureData {
    /// TIFF and the TIFF-based RAWs (DNG, NEF, CR2, ARW, ...): the strips or tiles of the largest
    /// image among every IFD and SubIFD (the full-size or raw image, not a preview).
    public static func tiff(_ file: FileDescriptor) -> Region? {
        guard let tiff = TIFFStructure(.file(file, base: 0)) else { return nil }
        var largest: (bytes: Int64, ranges: [Range<Int64>])?
        tiff.walkDirectories(limit: 64, chain: .every) { _, entries in
            for (offsetsTag, countsTag) in [(0x0111, 0x0117), (0x0144, 0x0145)] {  // strips, tiles
                guard let offsets = entries.first(where: { $0.tag == offsetsTag }).flatMap({ numbers(tiff, $0) }),
                      let counts = entries.first(where: { $0.tag == countsTag }).flatMap({ numbers(tiff, $0) }),
                      offsets.count == counts.count else { continue }
                let ranges = zip(offsets, counts).map { $0..<$0 + $1 }
                let bytes = counts.reduce(0, +)
                if bytes > largest?.bytes ?? 0 { largest = (bytes, ranges) }
            }
            return true
        }
        return largest.map { .ranges($0.ranges) }
    }

    /// The values of a SHORT or LONG entry (at most 16,384: `TIFFStructure.maxValueBytes`).
    private static func numbers(_ tiff: TIFFStructure, _ entry: TIFFStructure.Entry) -> [Int64]? {
        let unit: Int
        switch entry.type {
        case 3: unit = 2
        case 4, 13: unit = 4
        default: return nil
        }
        guard let value = tiff.value(of: entry) else { return nil }
        return stride(from: 0, to: value.count, by: unit).map { Int64(tiff.order.integer(value, at: $0, count: unit)) }
    }

    /// HEIC, AVIF: the data of the primary item and of the items it is derived from (a grid's
    /// tiles), as `iloc` locates them; the Exif and XMP items are left out.
    public static func heif(_ file: FileDescriptor) -> Region? {
        guard let meta = HEIFMeta(file: file), let iloc = meta.box("iloc") else { return nil }
        let sources = meta.box("iref").map { HEIFItems.targets(of: meta.primary, as: "dimg", $0) } ?? []
        let idat = meta.box("idat").map { meta.fileOffset(of: $0) }
        var ranges: [Range<Int64>] = []
        for item in [meta.primary] + sources {
            guard let extents = HEIFItems.extents(of: item, iloc) else { return nil }
            for extent in extents {
                var start = Int64(extent.start)
                if extent.inIdat {
                    guard let idat else { return nil }
                    start += idat
                }
                ranges.append(start..<start + Int64(extent.length))
            }
        }
        return ranges.isEmpty ? nil : .ranges(ranges)
    }
}
