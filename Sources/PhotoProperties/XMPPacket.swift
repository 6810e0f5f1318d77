/// What properties take from a photo's XMP packet where its EXIF has none: the date and the camera.
///
/// The date is `exif:DateTimeOriginal`, else `photoshop:DateCreated` (what iOS writes into
/// screenshots and Lightroom into exports), else `xmp:CreateDate`; the camera `tiff:Make` and
/// `tiff:Model` (a scanner's, say). Each may be written as an attribute (`exif:DateTimeOriginal="…"`)
/// or as an element (`<exif:DateTimeOriginal>…</exif:DateTimeOriginal>`), under whatever prefix
/// the packet declares for its namespace (older Adobe software wrote `xap:` for `xmp:`). Dates are
/// ISO 8601 as XMP writes them (`2021-03-04T10:11:12.345+01:00`): seconds, their fraction and the
/// offset are optional (`Z` is UTC), and a date alone is taken as its midnight.
struct XMPPacket {
    struct Property {
        var namespace: String
        var name: String
        var usualPrefix: String
    }

    static let dates = [
        Property(namespace: "http://ns.adobe.com/exif/1.0/", name: "DateTimeOriginal", usualPrefix: "exif"),
        Property(namespace: "http://ns.adobe.com/photoshop/1.0/", name: "DateCreated", usualPrefix: "photoshop"),
        Property(namespace: "http://ns.adobe.com/xap/1.0/", name: "CreateDate", usualPrefix: "xmp"),
    ]
    static let make = Property(namespace: "http://ns.adobe.com/tiff/1.0/", name: "Make", usualPrefix: "tiff")
    static let model = Property(namespace: "http://ns.adobe.com/tiff/1.0/", name: "Model", usualPrefix: "tiff")
    static let latitude = Property(namespace: "http://ns.adobe.com/exif/1.0/", name: "GPSLatitude", usualPrefix: "exif")
    static let longitude = Property(namespace: "http://ns.adobe.com/exif/1.0/", name: "GPSLongitude", usualPrefix: "exif")
    /// A packet larger than this is not searched. Real ones are a few KiB to a few hundred; a few
    /// MiB where an editor kept every ancestor document or a thousand face regions. Every search
    /// of a packet is linear (memchr), so the bound is one of memory: 16 MiB, read once.
    static let maxPacketBytes = 16 << 20
    /// XML's white space: space, tab, line feed, carriage return.
    static let whitespace: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D]

    let bytes: [UInt8]

    init?(_ bytes: [UInt8]) {
        guard bytes.count <= Self.maxPacketBytes else { return nil }
        self.bytes = bytes
    }

    var date: TakenDate? {
        for property in Self.dates {
            if let value = value(of: property), let date = TakenDate.xmp(value) { return date }
        }
        return nil
    }

    /// `exif:GPSLatitude` and `exif:GPSLongitude`, written `DDD,MM,SSk` or `DDD,MM.mmk` (k: N, S,
    /// E or W); 0,0 is none, as in EXIF.
    var location: Coordinates? {
        guard let latitude = value(of: Self.latitude).flatMap({ Self.degrees($0, negative: 0x53) }),
              let longitude = value(of: Self.longitude).flatMap({ Self.degrees($0, negative: 0x57) }),
              abs(latitude) <= 90, abs(longitude) <= 180, latitude != 0 || longitude != 0 else { return nil }
        return Coordinates(latitude: latitude, longitude: longitude)
    }

    /// Degrees from an XMP GPS coordinate; `negative` is the letter (S or W) that makes it so.
    static func degrees(_ text: ArraySlice<UInt8>, negative: UInt8) -> Double? {
        guard let letter = text.last.map({ $0 & 0xDF }), [0x4E, 0x53, 0x45, 0x57].contains(letter) else { return nil }
        let parts = text.dropLast().split(separator: 0x2C).map { Double(String(decoding: $0, as: UTF8.self)) }
        guard (1...3).contains(parts.count), parts.allSatisfy({ $0 != nil && $0! >= 0 }) else { return nil }
        let value = zip(parts.map { $0! }, [1.0, 60, 3600]).reduce(0) { $0 + $1.0 / $1.1 }
        return letter == negative ? -value : value
    }

    /// "Make Model" as EXIF's are joined (`EXIFMetadata.camera`).
    var camera: [UInt8]? {
        let text = { (property: Property) -> [UInt8]? in
            self.value(of: property).map(Self.unescaped).map { Array($0.drop { $0 == 0x20 }.reversed().drop { $0 == 0x20 }.reversed()) }
                .flatMap { $0.isEmpty ? nil : $0 }
        }
        return EXIFMetadata.camera(make: text(Self.make), model: text(Self.model))
    }

    /// The first value of `property` in `part` of the packet (all of it by default).
    func value(of property: Property, in part: ArraySlice<UInt8>? = nil) -> ArraySlice<UInt8>? {
        for name in qualifiedNames(of: property) {
            if let value = Self.value(of: name, in: part ?? bytes[...]) { return value }
        }
        return nil
    }

    /// `prefix:name` under each prefix the packet declares for the property's namespace (or the
    /// usual one when it declares none).
    func qualifiedNames(of property: Property) -> [[UInt8]] {
        let declared = Self.prefixes(of: Array(property.namespace.utf8), in: bytes[...])
        return (declared.isEmpty ? [Array(property.usualPrefix.utf8)] : declared).map { $0 + [0x3A] + Array(property.name.utf8) }
    }

    /// Text with XML's five predefined entities (`&amp;` …) and its character references (`&#39;`,
    /// as exiftool writes an apostrophe, `&#x2F;`) turned back into their characters.
    static func unescaped(_ text: ArraySlice<UInt8>) -> [UInt8] {
        let entities: [(String, UInt8)] = [("&amp;", 0x26), ("&lt;", 0x3C), ("&gt;", 0x3E), ("&quot;", 0x22), ("&apos;", 0x27)]
        var result: [UInt8] = [], rest = text
        while let ampersand = rest.firstIndex(of: 0x26) {
            result += rest[..<ampersand]
            rest = rest[ampersand...]
            if let (entity, character) = entities.first(where: { rest.starts(with: $0.0.utf8) }) {
                result.append(character)
                rest = rest.dropFirst(entity.utf8.count)
            } else if let (scalar, length) = characterReference(rest) {
                result += Array(String(Character(scalar)).utf8)
                rest = rest.dropFirst(length)
            } else {
                result.append(0x26)
                rest = rest.dropFirst()
            }
        }
        return result + rest
    }

    /// `&#NNN;` or `&#xHH;` at the start of `text`: the character and the reference's length.
    static func characterReference(_ text: ArraySlice<UInt8>) -> (Unicode.Scalar, Int)? {
        guard text.starts(with: [0x26, 0x23]), let end = text.prefix(12).firstIndex(of: 0x3B) else { return nil }
        var digits = Substring(String(decoding: text[(text.startIndex + 2)..<end], as: UTF8.self)), radix = 10
        if digits.first == "x" || digits.first == "X" { (digits, radix) = (digits.dropFirst(), 16) }
        guard !digits.isEmpty, let value = UInt32(digits, radix: radix), let scalar = Unicode.Scalar(value) else { return nil }
        return (scalar, end + 1 - text.startIndex)
    }

    /// The prefixes `xmlns:PREFIX="namespace"` declares in the packet.
    static func prefixes(of namespace: [UInt8], in packet: ArraySlice<UInt8>) -> [[UInt8]] {
        var result: [[UInt8]] = [], rest = packet
        while let found = rest.firstRange(ofBytes: namespace) {
            rest = packet[found.upperBound...]
            // Back from the opening quote: `=`, the prefix, `xmlns:`.
            var at = found.lowerBound - 1
            guard at > packet.startIndex, packet[at] == 0x22 || packet[at] == 0x27 else { continue }
            at -= 1
            while at > packet.startIndex, whitespace.contains(packet[at]) { at -= 1 }
            guard packet[at] == 0x3D else { continue }
            at -= 1
            while at > packet.startIndex, whitespace.contains(packet[at]) { at -= 1 }
            let end = at + 1
            while at > packet.startIndex, packet[at] != 0x3A, !whitespace.contains(packet[at]), packet[at] != 0x3C { at -= 1 }
            let xmlns = Array("xmlns".utf8)
            guard packet[at] == 0x3A, at - packet.startIndex >= xmlns.count, packet[(at - xmlns.count)..<at].elementsEqual(xmlns),
                  at + 1 < end else { continue }
            result.append(Array(packet[(at + 1)..<end]))
        }
        return result
    }

    /// The text of the first attribute or simple element called `name`.
    static func value(of name: [UInt8], in packet: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        var rest = packet
        while let found = rest.firstRange(ofBytes: name) {
            defer { rest = packet[found.upperBound...] }
            // A whole name: after a space, a tag's '<' or a line break; not the end of a longer one.
            guard found.lowerBound > packet.startIndex, whitespace.contains(packet[found.lowerBound - 1]) || packet[found.lowerBound - 1] == 0x3C else { continue }
            var at = found.upperBound
            while at < packet.endIndex, whitespace.contains(packet[at]) { at += 1 }
            guard at < packet.endIndex else { return nil }
            if packet[found.lowerBound - 1] == 0x3C {
                // <name>value</name>
                guard packet[at] == 0x3E else { continue }
                let start = at + 1
                guard let end = packet[start...].firstIndex(of: 0x3C) else { return nil }
                return packet[start..<end]
            }
            // name="value" or name='value'
            guard packet[at] == 0x3D else { continue }
            at += 1
            while at < packet.endIndex, whitespace.contains(packet[at]) { at += 1 }
            guard at < packet.endIndex, packet[at] == 0x22 || packet[at] == 0x27 else { continue }
            let quote = packet[at], start = at + 1
            guard let end = packet[start...].firstIndex(of: quote) else { return nil }
            return packet[start..<end]
        }
        return nil
    }
}

extension TakenDate {
    /// An XMP date (ISO 8601, see `XMPPacket`), or nil when it is not a real one.
    static func xmp(_ text: ArraySlice<UInt8>) -> TakenDate? {
        let chars = Array(text.drop(while: XMPPacket.whitespace.contains))
        func number(_ from: Int, _ count: Int) -> Int? { decimal(chars, from, count) }
        func at(_ index: Int) -> UInt8? { index < chars.count ? chars[index] : nil }
        guard let year = number(0, 4), at(4) == 0x2D, let month = number(5, 2), at(7) == 0x2D, let day = number(8, 2),
              year >= 1, (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year) else { return nil }
        var (hour, minute, second) = (0, 0, 0)
        var index = 10, offset: Int?
        if at(10) == 0x54 {
            guard let h = number(11, 2), at(13) == 0x3A, let m = number(14, 2), h < 24, m < 60 else { return nil }
            (hour, minute, index) = (h, m, 16)
            if at(16) == 0x3A {
                guard let s = number(17, 2), s <= 60 else { return nil }
                (second, index) = (s, 19)
                if at(19) == 0x2E {
                    index = 20
                    while let digit = at(index), (0x30...0x39).contains(digit) { index += 1 }
                }
            }
            if at(index) == 0x5A {
                offset = 0
                index += 1
            } else if at(index) == 0x2B || at(index) == 0x2D {
                guard let minutes = Self.offset(Array(chars[index..<min(index + 6, chars.count)])) else { return nil }
                offset = minutes
                index += 6
            }
        }
        guard index == chars.count || XMPPacket.whitespace.contains(chars[index]) else { return nil }
        return TakenDate(year: year, month: month, day: day, hour: hour, minute: minute, second: second, offsetMinutes: offset, source: .xmp)
    }
}
