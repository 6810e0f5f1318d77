import Foundation
import PhotoSource

/// What a sidecar file says of its photo (`PhotoSource.SidecarNames` finds them): an XMP sidecar's
/// `exif:DateTimeOriginal` (or the other XMP dates), `exif:GPSLatitude`/`GPSLongitude`, keywords,
/// people and rating (as embedded XMP's: `XMPPacket+Labels`); a Google Takeout JSON's
/// `photoTakenTime.timestamp` (UTC seconds, shown in local time like an mtime), `geoData` (else
/// `geoDataExif`; 0,0 is none), `people[].name` and `favorited`.
public struct SidecarMetadata: Sendable, Equatable {
    public var date: TakenDate?
    public var location: Coordinates?
    public var keywords: [[String]] = []
    public var people: [String] = []
    public var rating: Int?
    public var favorite = false

    /// The most read of a sidecar named `name`: a JSON's up to 1 MiB (real ones are a few KiB),
    /// an XMP sidecar's up to an XMP packet's bound.
    public static func maxBytes(of name: [UInt8]) -> Int { SidecarNames.isJSON(name) ? maxJSONBytes : XMPPacket.maxPacketBytes }
    static let maxJSONBytes = 1 << 20

    public init(date: TakenDate?, location: Coordinates?) {
        self.date = date
        self.location = location
    }

    /// Parses a sidecar's content: XMP if it holds an XMP packet, else Takeout's JSON; nil when
    /// it is neither or says nothing.
    public init?(_ bytes: [UInt8]) {
        if bytes.firstRange(ofBytes: Array("x:xmpmeta".utf8)) != nil || bytes.firstRange(ofBytes: Array("<rdf:RDF".utf8)) != nil {
            guard let packet = XMPPacket(bytes) else { return nil }
            var date = packet.date
            date?.source = .sidecar
            self.init(date: date, location: packet.location)
            var labels = Labels()
            packet.gather(into: &labels)
            (keywords, people, rating) = (labels.keywords, labels.uniquePeople, packet.rating)
        } else {
            guard bytes.count <= Self.maxJSONBytes,
                  let json = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else { return nil }
            self.init(date: Self.takeoutDate(json), location: Self.takeoutLocation(json))
            people = Self.takeoutPeople(json)
            favorite = json["favorited"] as? Bool == true
        }
        if self == SidecarMetadata(date: nil, location: nil) { return nil }
    }

    /// A Takeout JSON's `title`: the file name of its photo (which its own name may not say).
    public static func takeoutTitle(_ bytes: [UInt8]) -> [UInt8]? {
        guard bytes.count <= maxJSONBytes, let json = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any],
              let title = json["title"] as? String, !title.isEmpty else { return nil }
        return Array(title.utf8)
    }

    static func takeoutDate(_ json: [String: Any]) -> TakenDate? {
        guard let taken = json["photoTakenTime"] as? [String: Any] else { return nil }
        let seconds = (taken["timestamp"] as? String).flatMap { Int64($0) } ?? (taken["timestamp"] as? NSNumber)?.int64Value
        guard let seconds, seconds > 0, seconds < Int64.max / 1_000_000_000 else { return nil }
        return TakenDate.local(seconds, source: .sidecar)
    }

    static func takeoutLocation(_ json: [String: Any]) -> Coordinates? {
        for key in ["geoData", "geoDataExif"] {
            guard let geo = json[key] as? [String: Any], let latitude = (geo["latitude"] as? NSNumber)?.doubleValue,
                  let longitude = (geo["longitude"] as? NSNumber)?.doubleValue else { continue }
            if (latitude != 0 || longitude != 0) && abs(latitude) <= 90 && abs(longitude) <= 180 {
                return Coordinates(latitude: latitude, longitude: longitude)
            }
        }
        return nil
    }

    /// `people[].name`, as Takeout lists the people Google Photos recognised and the user named.
    static func takeoutPeople(_ json: [String: Any]) -> [String] {
        var labels = Labels()
        for person in (json["people"] as? [[String: Any]] ?? []) {
            if let name = person["name"] as? String { labels.addPerson(Array(name.utf8)) }
        }
        return labels.uniquePeople
    }
}
