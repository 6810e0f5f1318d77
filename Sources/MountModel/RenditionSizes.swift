import Renditions

/// One size of rendition a mount shows: `<name>.jpg` in every asset folder, and a view of its own
/// at the top of the mount (`thumbnails/` for the thumbnail, as Apple's library named it; else the
/// size's name) holding `<album>/<asset>.jpg`.
public struct RenditionSize: Hashable, Sendable {
    /// `thumbnail`, `fullscreen`, or a name given with `-o sizes=`.
    public let name: String
    public let longestSide: Int
    /// Its place in the mount's list (0 the thumbnail, 1 the fullscreen, then the named ones in
    /// the order given): part of its files' inode numbers.
    public let slot: Int

    public var fileName: [UInt8] { Array("\(name).jpg".utf8) }
    public var viewName: [UInt8] { Array((slot == 0 ? "thumbnails" : name).utf8) }
    /// The thumbnail is what a listing of an album asks for, many at once: it never waits behind
    /// a bigger size.
    public var isThumbnail: Bool { slot == 0 }
    /// What the renderer makes of a photo for this size.
    public func spec(quality: Int) -> RenditionSpec { RenditionSpec(longestSide: longestSide, quality: quality) }
}

/// The sizes of a mount: `thumbnail` and `fullscreen`, then any named with `-o sizes=NAME:PX+...`.
/// Every file, view and render of a size follows from its entry here.
public struct RenditionSizes: Sendable, Equatable, Sequence {
    public private(set) var all: [RenditionSize]

    /// The most a mount shows (its slot must fit in a file's inode number).
    public static let maximumCount = 10
    public static let longestSides = 16...16384

    public init(thumbnail: Int = 256, fullscreen: Int = 1920) {
        all = [RenditionSize(name: "thumbnail", longestSide: thumbnail, slot: 0),
               RenditionSize(name: "fullscreen", longestSide: fullscreen, slot: 1)]
    }

    public var thumbnail: RenditionSize { all[0] }
    public var fullscreen: RenditionSize { all[1] }
    public subscript(slot: Int) -> RenditionSize? { all.indices.contains(slot) ? all[slot] : nil }
    public func makeIterator() -> IndexingIterator<[RenditionSize]> { all.makeIterator() }

    /// Changes the longest side of size `slot`.
    public mutating func resize(_ slot: Int, to longestSide: Int) {
        let size = all[slot]
        all[slot] = RenditionSize(name: size.name, longestSide: longestSide, slot: slot)
    }

    /// Adds size `name`; throws the reason a user can act on when it cannot be shown.
    public mutating func add(_ name: String, longestSide: Int) throws(SizeError) {
        guard all.count < Self.maximumCount else { throw .tooMany }
        guard !name.isEmpty, name.count <= 32, name.utf8.allSatisfy({ Self.nameBytes.contains($0) }) else { throw .badName(name) }
        let size = RenditionSize(name: name, longestSide: longestSide, slot: all.count)
        guard !MountLayout.reservedSizeNames.contains(name), !all.contains(where: { $0.name == name || $0.viewName == size.viewName }) else {
            throw .taken(name)
        }
        guard Self.longestSides.contains(longestSide) else { throw .badSide(name, longestSide) }
        all.append(size)
    }

    /// Adds the sizes of `list`, as `-o sizes=` gives them: `NAME:PX`, several joined by `+`
    /// (`medium:1024+large:2560`).
    public mutating func add(parsing list: String) throws(SizeError) {
        for entry in try Self.entries(list) { try add(entry.name, longestSide: entry.side) }
    }

    /// The `NAME:PX` entries of a `+`-joined list.
    private static func entries(_ list: String) throws(SizeError) -> [(name: String, side: Int)] {
        var result: [(name: String, side: Int)] = []
        for item in list.split(separator: "+", omittingEmptySubsequences: false) {
            let parts = item.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2, let side = Int(parts[1]) else { throw .badEntry(String(item)) }
            result.append((String(parts[0]), side))
        }
        return result
    }

    /// The sizes as the root's `user.assetfs.sizes` tells them (every size, `+`-joined
    /// `NAME:PX`), so a tool reading a mount (`assetfs thumbnails`) knows its files and views.
    public var description: String { all.map { "\($0.name):\($0.longestSide)" }.joined(separator: "+") }

    /// The sizes a mount's `description` tells.
    public init(description: String) throws(SizeError) {
        let entries = try Self.entries(description)
        guard entries.count >= 2, entries[0].name == "thumbnail", entries[1].name == "fullscreen" else { throw .badEntry(description) }
        self.init(thumbnail: entries[0].side, fullscreen: entries[1].side)
        for entry in entries.dropFirst(2) { try add(entry.name, longestSide: entry.side) }
    }

    /// Names are lower-case letters, digits, `-` and `_`: a file name and a folder name anywhere.
    private static let nameBytes = Set("abcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    public func size(fileNamed name: [UInt8]) -> RenditionSize? { all.first { $0.fileName == name } }
    public func size(viewNamed name: [UInt8]) -> RenditionSize? { all.first { $0.viewName == name } }

    public enum SizeError: Error, Equatable, CustomStringConvertible {
        case tooMany, badName(String), taken(String), badSide(String, Int), badEntry(String)

        public var description: String {
            switch self {
            case .tooMany: return "at most \(RenditionSizes.maximumCount) sizes (thumbnail and fullscreen included)"
            case .badName(let name): return "'\(name)': a size's name is 1 to 32 lower-case letters, digits, '-' or '_'"
            case .taken(let name): return "'\(name)': that name is taken (\(MountLayout.reservedSizeNames.sorted().joined(separator: ", ")), or given twice)"
            case .badEntry(let entry): return "'\(entry)': expected NAME:PX, e.g. medium:1024 (several joined by '+')"
            case .badSide(let name, let side): return "'\(name)': \(side) px is outside \(RenditionSizes.longestSides.lowerBound)-\(RenditionSizes.longestSides.upperBound)"
            }
        }
    }
}
