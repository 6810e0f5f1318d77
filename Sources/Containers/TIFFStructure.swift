import Posix

/// A TIFF structure read entry by entry where it lies: a TIFF or TIFF-based RAW file (its IFDs may
/// be anywhere in it: an Epson scan's IFD0 follows 800 KB of pixels), or an EXIF block in memory.
/// Only the IFDs asked for are read, each bounded; offsets past the end simply read nothing. The
/// walk for RAW previews and the photo properties' EXIF reading share it.
public struct TIFFStructure {
    public enum Storage {
        /// A file, the structure's offset 0 at `base` (a RAW's embedded JPEG, or 0).
        case file(FileDescriptor, base: Int64)
        case bytes([UInt8])
    }

    public struct Entry {
        public var tag: Int
        public var type: Int
        public var count: Int
        /// The value field: the value itself when it fits in 4 bytes, else its offset.
        public var field: [UInt8]
    }

    public let storage: Storage
    public let order: ByteOrder
    /// 42, or a RAW dialect's own (0x55 in RW2).
    public let magic: Int
    public let firstIFD: Int64

    /// IFDs hold at most this many entries here (real ones a few hundred).
    static let maxEntries = 1000
    /// A value longer than this (maker notes, strips) is never read.
    static let maxValueBytes = 65536

    /// Nil unless `storage` begins with a TIFF header: "II" or "MM", then a magic number (42, or
    /// the 0x55 of Panasonic's RW2 or "RO"/"RS" of Olympus's ORF) and IFD0's offset.
    public init?(_ storage: Storage) {
        self.storage = storage
        guard let header = Self.read(storage, at: 0, count: 8) else { return nil }
        switch (header[0], header[1]) {
        case (0x49, 0x49): order = .littleEndian
        case (0x4D, 0x4D): order = .bigEndian
        default: return nil
        }
        magic = order.integer(header[2..<4])
        guard [42, 0x55, 0x4F52, 0x5352].contains(magic) else { return nil }
        firstIFD = Int64(order.integer(header[4..<8]))
    }

    /// The entries of the IFD at `offset` and the offset of the next IFD (0 at the end).
    public func directory(at offset: Int64) -> (entries: [Entry], next: Int64)? {
        guard offset >= 8, let countBytes = read(at: offset, count: 2) else { return nil }
        let count = min(Self.maxEntries, order.integer(countBytes[...]))
        guard let bytes = read(at: offset + 2, count: count * 12 + 4) ?? read(at: offset + 2, count: count * 12) else { return nil }
        let entries = (0..<count).map { index in
            let at = index * 12
            return Entry(tag: order.integer(bytes[at..<at + 2]), type: order.integer(bytes[at + 2..<at + 4]),
                         count: order.integer(bytes[at + 4..<at + 8]), field: Array(bytes[at + 8..<at + 12]))
        }
        let next = bytes.count == count * 12 + 4 ? Int64(order.integer(bytes[(count * 12)...])) : 0
        return (entries, next)
    }

    /// The bytes of an entry's value (in this structure's byte order), if its type is known and
    /// it is not too long.
    public func value(of entry: Entry) -> [UInt8]? {
        guard let unit = Self.unitBytes[entry.type], entry.count >= 0, entry.count <= Self.maxValueBytes / max(1, unit) else { return nil }
        let length = unit * entry.count
        if length <= 4 { return Array(entry.field[0..<length]) }
        return read(at: Int64(order.integer(entry.field[...])), count: length)
    }

    /// The first number of a SHORT or LONG entry.
    public func number(of entry: Entry) -> Int? {
        switch entry.type {
        case 3: return order.integer(entry.field[0..<2])
        case 4, 13: return order.integer(entry.field[0..<4])
        default: return nil
        }
    }

    /// Bytes a component of each TIFF type takes: BYTE, ASCII, SHORT, LONG, RATIONAL, SBYTE,
    /// UNDEFINED, SSHORT, SLONG, SRATIONAL, FLOAT, DOUBLE, IFD.
    static let unitBytes: [Int: Int] = [1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4, 12: 8, 13: 4]

    /// The tag of the SubIFDs list (TIFF/EP, DNG): the full-size image and previews of a RAW.
    public static let subIFDsTag = 0x014A

    /// Which IFDs a walk follows by their next-IFD offsets.
    public enum Chain {
        /// Every IFD's next: the whole chain of each.
        case every
        /// IFD0's only: IFD1, the thumbnail's.
        case ofFirst
    }

    /// The one walk of a structure's IFDs: IFD0, the SubIFDs of each IFD reached and the next
    /// IFDs `chain` says, breadth first. Each offset is tried once (a loop ends there) and at
    /// most `limit` are tried. `visit` gets each IFD read whole, with its offset, and returns
    /// false to stop.
    public func walkDirectories(limit: Int, chain: Chain, _ visit: (_ offset: Int64, _ entries: [Entry]) -> Bool) {
        var queue = [firstIFD], next = 0
        var tried: Set<Int64> = []
        while next < queue.count, tried.count < limit {
            let offset = queue[next]
            next += 1
            guard tried.insert(offset).inserted, let (entries, following) = directory(at: offset) else { continue }
            guard visit(offset, entries) else { return }
            for entry in entries where entry.tag == Self.subIFDsTag { queue += offsets(in: entry) }
            if chain == .every || offset == firstIFD, following != 0 { queue.append(following) }
        }
    }

    /// The offsets of the IFDs an entry points to (a SubIFDs list), at most 16.
    public func offsets(in entry: Entry) -> [Int64] {
        guard entry.type == 4 || entry.type == 13, entry.count <= 16, let value = value(of: entry) else { return [] }
        return stride(from: 0, to: value.count, by: 4).map { Int64(order.integer(value[$0..<$0 + 4])) }
    }

    func read(at offset: Int64, count: Int) -> [UInt8]? { Self.read(storage, at: offset, count: count) }

    private static func read(_ storage: Storage, at offset: Int64, count: Int) -> [UInt8]? {
        guard offset >= 0, count >= 0 else { return nil }
        switch storage {
        case .file(let file, let base):
            guard let bytes = try? file.read(upTo: count, at: base + offset), bytes.count == count else { return nil }
            return bytes
        case .bytes(let bytes):
            guard offset + Int64(count) <= Int64(bytes.count) else { return nil }
            return Array(bytes[Int(offset)..<Int(offset) + count])
        }
    }
}
