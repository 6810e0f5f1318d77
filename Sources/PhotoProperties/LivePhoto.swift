internal import CExif
import Containers
import PhotoSource
import Posix

/// The content identifier that pairs an Apple Live Photo's still with its MOV. The still keeps it
/// in its Apple MakerNote, tag 0x0011 (exiftool's Apple:MediaGroupUUID); the MOV in its QuickTime
/// keys (`com.apple.quicktime.content.identifier`, `VideoProperties.livePhotoIdentifier`).
/// Pair by this identifier, never by name alone.
public enum LivePhoto {
    /// The identifier of the still (JPEG or HEIC) open at `file`, or nil.
    public static func identifier(_ file: FileDescriptor) -> String? {
        let block: [UInt8]
        if let segments = JPEGSegments.read(file) {
            guard let exif = segments.exif else { return nil }
            block = exif
        } else {
            // A HEIF Exif item: a 4-byte offset to the TIFF header, then the block.
            guard let item = HEIFItems(file: file).exifItem, item.count > 4 else { return nil }
            let skip = 4 + ByteOrder.bigEndian.integer(item[0..<4])
            guard skip < item.count else { return nil }
            block = JPEGSegments.exifHeader + item[skip...]
        }
        guard let makerNote = makerNote(of: block) else { return nil }
        return appleMediaGroup(in: makerNote)
    }

    /// The EXIF IFD's MakerNote (tag 0x927C), as stored.
    static func makerNote(of block: [UInt8]) -> [UInt8]? {
        guard let data = block.withUnsafeBufferPointer({ cexif_load_as_is($0.baseAddress, UInt32($0.count)) }) else { return nil }
        defer { exif_data_unref(data) }
        guard let entry = cexif_entry(data, EXIFMetadata.exifIFD, 0x927C), let bytes = entry.pointee.data, entry.pointee.size > 0 else { return nil }
        return Array(UnsafeBufferPointer(start: bytes, count: Int(entry.pointee.size)))
    }

    /// Tag 0x0011 of an Apple MakerNote: "Apple iOS\0", a version, "MM", then a big-endian IFD at
    /// offset 14 whose value offsets count from the MakerNote's start.
    static func appleMediaGroup(in note: [UInt8]) -> String? {
        guard note.count > 16, note.starts(with: Array("Apple iOS\0".utf8)), Array(note[12..<14]) == Array("MM".utf8) else { return nil }
        let order = ByteOrder.bigEndian
        let count = order.integer(note, at: 14, count: 2)
        for index in 0..<min(count, 512) {
            let entry = 16 + index * 12
            guard entry + 12 <= note.count else { return nil }
            guard order.integer(note, at: entry, count: 2) == 0x0011, order.integer(note, at: entry + 2, count: 2) == 2 else { continue }
            let length = order.integer(note, at: entry + 4, count: 4)
            let start = length <= 4 ? entry + 8 : order.integer(note, at: entry + 8, count: 4)
            guard length > 0, start >= 0, start <= note.count - length else { return nil }
            let text = note[start..<(start + length)].prefix { $0 != 0 }
            return text.isEmpty ? nil : String(decoding: text, as: UTF8.self)
        }
        return nil
    }
}
