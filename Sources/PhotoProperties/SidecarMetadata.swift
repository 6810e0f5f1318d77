import Foundation

/// What a sidecar file says of its photo (`PhotoSource.SidecarNames` finds them): an XMP sidecar's
/// `exif:DateTimeOriginal` (or the other XMP dates) and `exif:GPSLatitude`/`GPSLongitude`; a
/// Google Takeout JSON's `photoTakenTime.timestamp` (UTC seconds, shown in local time like an
/// mtime) and `geoData` (else `geoDataExif`; 0,0 is none).
public struct SidecarMetadata: Sendable, Equatable {
    public var date: TakenDate?
    public var location: Coordinates?

    /// Sidecars larger than this are not read (real ones are a few KiB).
    public static let maxBytes = 1 << 20

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
        } else {
            guard bytes.count <= Self.maxBytes,
                  let json = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else { return nil }
            self.init(date: Self.takeoutDate(json), location: Self.takeoutLocation(json))
        }
        if date == nil && location == nil { return nil }
    }

    /// A Takeout JSON's `title`: the file name of its photo (which its own name may not say).
    public static func takeoutTitle(_ bytes: [UInt8]) -> [UInt8]? {
        guard bytes.count <= maxBytes, let json = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any],
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
}
