import Containers
import PhotoSource
import Posix

/// The video inside a Motion Photo (Google Pixel, Samsung, other Android; JPEG and HEIC): where
/// its MP4 lies in the still's file, to be served as a byte range of the original. Found, in
/// turn, from the XMP `Container:Directory` (the MotionPhoto item's Length, counted from the end),
/// Samsung's SEF trailer (its `MotionPhoto_Data` block), the older `GCamera:MicroVideoOffset`
/// (from the end too; the video then ends where a SEF trailer begins), or a HEIC's top-level
/// `mpvd` box. Whatever the route, an `ftyp` box
/// must start where the MP4 is said to: a file whose XMP claims a video that was cut off is a
/// plain photo.
public enum MotionPhoto {
    public struct Video: Sendable, Equatable {
        /// Where the MP4 starts in the file, and its length in bytes.
        public var offset: Int64
        public var length: Int64
        public var foundBy: Route
    }

    public enum Route: String, Sendable {
        case containerDirectory, microVideoOffset, samsungTrailer, heifBox
    }

    /// The embedded video of the still open at `file` (pread only), or nil for a plain photo.
    public static func locate(_ file: FileDescriptor) -> Video? {
        guard let size = try? file.status().size, size > 16 else { return nil }
        var candidates: [Video] = []
        if let segments = JPEGSegments.read(file) {
            let trailer = samsungTrailer(file, fileSize: size)
            let xmp = segments.xmp.map { fromXMP($0[...], fileSize: size, end: trailer?.start ?? size) } ?? []
            candidates = xmp.filter { $0.foundBy == .containerDirectory } + (trailer?.video.map { [$0] } ?? [])
                + xmp.filter { $0.foundBy == .microVideoOffset }
        } else {
            if let xmp = HEIFItems(file: file).xmpItem { candidates += fromXMP(xmp[...], fileSize: size, end: size) }
            ISOBaseMediaFile.walkTopLevelBoxes(of: file) { box in
                guard box.type == "mpvd" else { return }
                candidates.append(Video(offset: box.contentOffset, length: box.size - Int64(box.headerLength), foundBy: .heifBox))
            }
        }
        return candidates.first { startsWithFileType($0, in: file, fileSize: size) }
    }

    static let containerNamespace = Array("http://ns.google.com/photos/1.0/container/".utf8)
    static let itemNamespace = Array("http://ns.google.com/photos/1.0/container/item/".utf8)
    static let cameraNamespace = Array("http://ns.google.com/photos/1.0/camera/".utf8)

    /// The routes the XMP packet names: the directory's MotionPhoto item, then MicroVideoOffset,
    /// whose video runs to `end` (the file's, or where a SEF trailer starts).
    static func fromXMP(_ packet: ArraySlice<UInt8>, fileSize: Int64, end: Int64) -> [Video] {
        var found: [Video] = []
        let items = directoryItems(packet)
        if let index = items.firstIndex(where: { $0.semantic == "MotionPhoto" }), let length = items[index].length, length > 0 {
            // Counted from the end: the items after it, and any padding after it, come last.
            let after = items[(index + 1)...].reduce(Int64(0)) { $0 + ($1.length ?? 0) + $1.padding } + items[index].padding
            let offset = fileSize - after - length
            if offset > 0 { found.append(Video(offset: offset, length: length, foundBy: .containerDirectory)) }
        }
        for prefix in XMPPacket.prefixes(of: cameraNamespace, in: packet) {
            guard let text = XMPPacket.value(of: prefix + Array(":MicroVideoOffset".utf8), in: packet),
                  let fromEnd = Int64(String(decoding: text, as: UTF8.self)), fromEnd > 0, fromEnd < fileSize, fileSize - fromEnd < end else { continue }
            found.append(Video(offset: fileSize - fromEnd, length: end - (fileSize - fromEnd), foundBy: .microVideoOffset))
        }
        return found
    }

    struct DirectoryItem {
        var semantic: String?
        var length: Int64?
        var padding: Int64
    }

    /// The `Container:Item` entries of the `Container:Directory`, in order, their fields written
    /// as attributes or as elements.
    static func directoryItems(_ packet: ArraySlice<UInt8>) -> [DirectoryItem] {
        let itemPrefixes = XMPPacket.prefixes(of: itemNamespace, in: packet)
        var items: [DirectoryItem] = []
        for container in XMPPacket.prefixes(of: containerNamespace, in: packet) {
            let open = Array("<".utf8) + container + Array(":Item".utf8), close = Array("</".utf8) + container + Array(":Item>".utf8)
            var rest = packet
            while let start = rest.firstRange(ofBytes: open), items.count < 64 {
                let tail = packet[start.upperBound...]
                guard let first = tail.first, first == 0x20 || first == 0x3E || first == 0x2F || XMPPacket.whitespace.contains(first) else {
                    rest = tail
                    continue
                }
                let tagEnd = tail.firstIndex(of: 0x3E) ?? tail.endIndex
                let selfClosing = tagEnd > tail.startIndex && packet[tagEnd - 1] == 0x2F
                let end = selfClosing ? tagEnd : (tail.firstRange(ofBytes: close)?.lowerBound ?? tagEnd)
                let element = packet[start.lowerBound..<end]
                func field(_ name: String) -> String? {
                    for prefix in itemPrefixes {
                        if let value = XMPPacket.value(of: prefix + Array(":\(name)".utf8), in: element) { return String(decoding: value, as: UTF8.self) }
                    }
                    return nil
                }
                items.append(DirectoryItem(semantic: field("Semantic"), length: field("Length").flatMap { Int64($0) },
                                           padding: field("Padding").flatMap { Int64($0) } ?? 0))
                rest = packet[end...]
            }
        }
        return items
    }

    /// Samsung's SEF trailer: the file ends with the directory's length (32-bit little-endian)
    /// and "SEFT"; the directory ("SEFH", version, count, then 12-byte entries of type, distance
    /// back from SEFH and length) points at data blocks, each with a type, a name and the data.
    /// The MP4 is the data of the block named `MotionPhoto_Data`. Nil without a trailer; `video`
    /// nil when no entry leads to such a block (a file shortened since the trailer was written).
    static func samsungTrailer(_ file: FileDescriptor, fileSize: Int64) -> (start: Int64, video: Video?)? {
        guard let tail = try? file.read(upTo: 8, at: fileSize - 8), tail.count == 8, Array(tail[4...]) == Array("SEFT".utf8) else { return nil }
        let directoryLength = Int64(ByteOrder.littleEndian.integer(tail, at: 0, count: 4))
        let sefh = fileSize - 8 - directoryLength
        guard directoryLength >= 12, directoryLength <= 1 << 20, sefh > 0,
              let directory = try? file.read(upTo: Int(directoryLength), at: sefh), directory.count == Int(directoryLength),
              Array(directory[0..<4]) == Array("SEFH".utf8) else { return nil }
        let count = ByteOrder.littleEndian.integer(directory, at: 8, count: 4)
        let name = Array("MotionPhoto_Data".utf8)
        for entry in 0..<min(count, 256) {
            let at = 12 + entry * 12
            guard at + 12 <= directory.count else { break }
            let back = Int64(ByteOrder.littleEndian.integer(directory, at: at + 4, count: 4))
            let length = Int64(ByteOrder.littleEndian.integer(directory, at: at + 8, count: 4))
            let block = sefh - back
            guard block >= 0, length > 8, block + length <= sefh,
                  let header = try? file.read(upTo: 8 + name.count, at: block), header.count == 8 + name.count,
                  ByteOrder.littleEndian.integer(header, at: 4, count: 4) == name.count, Array(header[8...]) == name else { continue }
            let data = block + 8 + Int64(name.count)
            return (sefh, Video(offset: data, length: block + length - data, foundBy: .samsungTrailer))
        }
        return (sefh, nil)
    }

    /// Whether an `ftyp` box starts at the video's offset, and the range lies within the file.
    static func startsWithFileType(_ video: Video, in file: FileDescriptor, fileSize: Int64) -> Bool {
        guard video.offset >= 0, video.length >= 8, video.offset + video.length <= fileSize,
              let head = try? file.read(upTo: 8, at: video.offset), head.count == 8 else { return false }
        return Array(head[4..<8]) == Array("ftyp".utf8) && Int64(ByteOrder.bigEndian.integer(head, at: 0, count: 4)) <= video.length
    }
}
