import PhotoSource
import Posix
import Video

/// A video's properties for the catalog, from its container's header and metadata (no frame is
/// decoded): type, duration, upright size, codec, date, place, camera and the Live Photo
/// identifier that pairs a MOV with its still.
public struct VideoProperties: Sendable, Equatable {
    /// `video/quicktime`, `video/mp4`, ... from the content (`SourceFormat`); nil when not recognised.
    public var mediaType: String?
    public var duration: Double?
    /// After the display matrix and the sample aspect ratio: a poster's shape.
    public var width: Int
    public var height: Int
    public var codec: String
    /// `hlg` or `pq` for HDR video.
    public var hdr: String?
    /// When it was recorded (see `read`), nil when the file does not say: the caller falls back
    /// to the file's time. The date's `source` says which field it came from (`.quickTime`, `.movieHeader`).
    public var date: TakenDate?
    public var location: Coordinates?
    /// "Make Model", as for photos.
    public var camera: [UInt8]?
    public var livePhotoIdentifier: String?

    /// Reads the video open at `file` (pread only). Dates: the QuickTime creation date with its
    /// zone first, then the movie header's UTC time in the daemon's zone (`TakenDate.local`). Places: the ISO 6709 QuickTime key, then
    /// the `©xyz` user data; 0,0 is none. Throws what a poster would: `.noPictures` for a
    /// file without pictures, a content failure for a broken one.
    public static func read(_ file: FileDescriptor, name: String, limits: VideoLimits = VideoLimits()) throws(VideoError) -> VideoProperties {
        let summary = try VideoSummary.read(file, name: name, limits: limits)
        guard summary.hasVideo, let size = summary.uprightSize, let codec = summary.codec else {
            throw VideoError.noPictures(path: name)
        }
        let head = (try? file.read(upTo: SourceFormat.headLength, at: 0)) ?? []
        let fileName = Array(name.utf8.split(separator: UInt8(ascii: "/")).last ?? [])
        let tags = summary.tags
        let format = SourceFormat.sniff(head, fileName: fileName).flatMap { $0.isVideo ? $0 : nil }
        var properties = VideoProperties(mediaType: format?.mimeType, duration: summary.duration,
                                         width: size.width, height: size.height, codec: codec, hdr: summary.hdr,
                                         livePhotoIdentifier: tags["com.apple.quicktime.content.identifier"])
        if let date = tags["com.apple.quicktime.creationdate"].flatMap({ Self.date($0, source: .quickTime) }) {
            properties.date = date
        } else if Self.movieHeaderFormats.contains(format), let utc = tags["creation_time"].flatMap({ Self.date($0, source: .movieHeader) }) {
            // The movie header's time is UTC (an Android clip carries no other): shown in the
            // daemon's zone, as a photo's mtime and a Takeout JSON's timestamp are.
            properties.date = TakenDate.local(utc.secondsSinceEpochTakingUTC, source: .movieHeader)
        }
        properties.location = [tags["com.apple.quicktime.location.ISO6709"], tags["location"]].lazy.compactMap { $0.flatMap(Self.iso6709) }.first
        properties.camera = EXIFMetadata.camera(make: (tags["com.apple.quicktime.make"] ?? tags["com.android.manufacturer"]).map { Array($0.utf8) },
                                                model: (tags["com.apple.quicktime.model"] ?? tags["com.android.model"]).map { Array($0.utf8) })
        return properties
    }

    /// The containers with a movie header (mvhd). FFmpeg names Matroska's DateUTC `creation_time`
    /// too, but that is when the file was muxed (a remux of an old clip gets today's date).
    static let movieHeaderFormats: Set<SourceFormat?> = [.quickTime, .mp4, .m4v, .threeGPP]

    private init(mediaType: String?, duration: Double?, width: Int, height: Int, codec: String, hdr: String?, livePhotoIdentifier: String?) {
        (self.mediaType, self.duration, self.width, self.height, self.codec, self.hdr) = (mediaType, duration, width, height, codec, hdr)
        self.livePhotoIdentifier = livePhotoIdentifier
    }

    /// An ISO 8601 date as FFmpeg gives QuickTime's (`2019-07-24T11:25:40+0300`) and the movie
    /// header's (`2019-07-24T08:25:57.000000Z`) dates: the zone's colon is optional.
    static func date(_ text: String, source: DateSource) -> TakenDate? {
        var bytes = Array(text.utf8)
        if bytes.count >= 5, let sign = bytes.dropLast(4).lastIndex(where: { $0 == 0x2B || $0 == 0x2D }), sign > 10,
           bytes.count - sign == 5, bytes[(sign + 1)...].allSatisfy({ (0x30...0x39).contains($0) }) {
            bytes.insert(0x3A, at: sign + 3)
        }
        guard var date = TakenDate.xmp(bytes[...]) else { return nil }
        date.source = source
        return date
    }

    /// An ISO 6709 point, `±DD.DDDD±DDD.DDDD[±AAA.AAA]/` (or with minutes, `±DDMM.MM`, or seconds,
    /// `±DDMMSS.SS`); nil for 0,0 or anything out of range.
    static func iso6709(_ text: String) -> Coordinates? {
        let body = text.prefix { $0 != "/" }
        let signs = body.indices.filter { body[$0] == "+" || body[$0] == "-" }
        guard signs.count >= 2, signs[0] == body.startIndex else { return nil }
        let parts = [body[signs[0]..<signs[1]], body[signs[1]..<(signs.count > 2 ? signs[2] : body.endIndex)]]
        guard parts.count >= 2, let latitude = degrees(parts[0], degreeDigits: 2), let longitude = degrees(parts[1], degreeDigits: 3),
              abs(latitude) <= 90, abs(longitude) <= 180, latitude != 0 || longitude != 0 else { return nil }
        return Coordinates(latitude: latitude, longitude: longitude)
    }

    /// A signed ISO 6709 number whose integer part is degrees (`degreeDigits` digits), or degrees
    /// and minutes (two more), or degrees, minutes and seconds (four more).
    private static func degrees(_ part: Substring, degreeDigits: Int) -> Double? {
        guard let sign = part.first, sign == "+" || sign == "-", let value = Double(part.dropFirst()) else { return nil }
        let integerDigits = part.dropFirst().prefix { $0 != "." }.count
        var degrees: Double
        switch integerDigits - degreeDigits {
        case 0: degrees = value
        case 2: degrees = (value / 100).rounded(.down) + value.truncatingRemainder(dividingBy: 100) / 60
        case 4: degrees = (value / 10000).rounded(.down) + (value / 100).rounded(.down).truncatingRemainder(dividingBy: 100) / 60
                + value.truncatingRemainder(dividingBy: 100) / 3600
        default: return nil
        }
        if sign == "-" { degrees = -degrees }
        return degrees
    }
}
