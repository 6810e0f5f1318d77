import Containers

/// The rest of a JPEG's XMP packet when it is too large for one segment (Lightroom's and
/// exiftool's past 64 KiB: a thousand face regions, say), in APP1 segments of its own: each a
/// 32-character GUID (the MD5 of the whole), the whole's length and this part's offset (32-bit
/// big-endian), then the part. The main packet names the GUID it continues in
/// (`xmpNote:HasExtendedXMP`). Parts kept are bounded by what the main packet leaves of
/// `XMPPacket.maxPacketBytes`.
struct ExtendedXMP {
    static let header: [UInt8] = Array("http://ns.adobe.com/xmp/extension/".utf8) + [0]
    static let guid = XMPPacket.Property(namespace: "http://ns.adobe.com/xmp/note/", name: "HasExtendedXMP", usualPrefix: "xmpNote")
    static let maxBytes = XMPPacket.maxPacketBytes - 65536

    private var parts: [[UInt8]: [(offset: Int, length: Int, bytes: [UInt8])]] = [:]
    private var kept = 0

    /// Keeps an extension segment's part (`payload` from its header on).
    mutating func add(_ payload: ArraySlice<UInt8>) {
        let at = payload.startIndex + Self.header.count
        guard payload.count >= Self.header.count + 40 else { return }
        let length = ByteOrder.bigEndian.integer(payload[(at + 32)..<(at + 36)])
        let offset = ByteOrder.bigEndian.integer(payload[(at + 36)..<(at + 40)]), data = payload[(at + 40)...]
        guard length <= Self.maxBytes, offset + data.count <= length, kept + data.count <= Self.maxBytes else { return }
        kept += data.count
        parts[Array(payload[at..<(at + 32)]), default: []].append((offset, length, Array(data)))
    }

    /// The packet's rest `main` names, when every byte of it came.
    func packet(continuing main: XMPPacket) -> [UInt8]? {
        guard let guid = main.value(of: Self.guid).map(XMPPacket.unescaped), let parts = parts[guid],
              let length = parts.first?.length else { return nil }
        var whole = [UInt8](repeating: 0, count: length), covered = 0
        for part in parts.sorted(by: { $0.offset < $1.offset }) where part.length == length {
            guard part.offset <= covered else { return nil }  // a part missing
            whole.replaceSubrange(part.offset..<(part.offset + part.bytes.count), with: part.bytes)
            covered = max(covered, part.offset + part.bytes.count)
        }
        return covered == length ? whole : nil
    }
}
