import PhotoSource
import Posix

/// What a photo says about itself: when it was taken, its upright size, its type, the camera and
/// the place. Read from the few places each format keeps them (never its image data) by `read(from:…)`; a
/// file whose metadata cannot be read still gets everything that can be known (the date falls
/// back to the file's mtime), and reading never fails.
public struct PhotoProperties: Sendable, Equatable {
    public var date: TakenDate
    /// The upright pixel size (EXIF orientation applied), when the header could be read.
    public var width: Int?
    public var height: Int?
    /// The MIME type, as the content's format says (`SourceFormat.mimeType`), when known.
    public var mediaType: String?
    /// EXIF Make and Model ("Canon EOS 7D": the model alone when it already names the make).
    public var camera: [UInt8]?
    /// Decimal degrees, north and east positive.
    public var location: Coordinates?
    /// A video's length in seconds.
    public var duration: Double?
    /// A video's codec as FFmpeg names it (`h264`, `hevc`, `av1`, ...).
    public var codec: String?
    /// A Motion Photo's embedded MP4: where it lies in the file (served as `motion.mp4`).
    public var motion: MotionPhoto.Video?
    /// The content identifier an Apple Live Photo's still and movie share (`LivePhoto`).
    public var liveIdentifier: String?

    public init(date: TakenDate, width: Int? = nil, height: Int? = nil, mediaType: String? = nil,
                camera: [UInt8]? = nil, location: Coordinates? = nil) {
        self.date = date
        self.width = width
        self.height = height
        self.mediaType = mediaType
        self.camera = camera
        self.location = location
    }

    /// Only what the file system knows: the date from the modification time.
    public static func unreadable(modificationNanoseconds: Int64, mediaType: String? = nil) -> PhotoProperties {
        PhotoProperties(date: .modificationTime(modificationNanoseconds), mediaType: mediaType)
    }

    /// Raised when a change of the readers gives some file other properties than before: a
    /// catalog whose properties were read by another version reads them all again (version 1 read
    /// EXIF and sizes of JPEGs only, version 2 no XMP, version 3 no sidecars, version 4 no
    /// Motion Photos or Live Photo identifiers, version 5 showed movie headers' times in UTC and
    /// read no dates in file names nor Takeout JSONs named in full).
    public static let readerVersion = 6

    /// Reads the properties of the photo open at `file` (whose mtime is `modificationNanoseconds`
    /// and whose content is of `format`): the EXIF block wherever the format keeps it, parsed by
    /// libexif, the XMP packet's date and camera where EXIF has none, and the stored size, turned upright by
    /// the EXIF orientation unless the format has turned it already.
    public static func read(from file: FileDescriptor, modificationNanoseconds: Int64, format: SourceFormat?) -> PhotoProperties {
        var result = unreadable(modificationNanoseconds: modificationNanoseconds, mediaType: format?.mimeType)
        guard let format else { return result }
        guard !format.isVideo else {
            // A video that cannot be opened keeps what the file system knows; its poster says why.
            guard let video = try? VideoProperties.read(file, name: "video") else { return result }
            if video.width > 0 && video.height > 0 {  // a stream FFmpeg reports as 0x0 has no known size
                (result.width, result.height) = (video.width, video.height)
            }
            result.duration = video.duration
            result.codec = video.codec
            if let date = video.date { result.date = date }
            (result.camera, result.location, result.liveIdentifier) = (video.camera, video.location, video.livePhotoIdentifier)
            return result
        }
        let embedded = EmbeddedMetadata.read(file, format)
        var orientation = 1
        if let block = embedded.exif, let exif = EXIFMetadata(block) {
            orientation = exif.orientation
            if let date = exif.date { result.date = date }
            result.camera = exif.camera
            result.location = exif.location
        }
        if let xmp = embedded.xmp.flatMap(XMPPacket.init) {
            if result.date.source == .modificationTime, let date = xmp.date { result.date = date }
            if result.camera == nil { result.camera = xmp.camera }
        }
        if format.mayHoldMotion { (result.motion, result.liveIdentifier) = (MotionPhoto.locate(file), LivePhoto.identifier(file)) }
        if let size = embedded.size, size.width > 0, size.height > 0 {
            let turned = !embedded.isUpright && (5...8).contains(orientation)
            result.width = turned ? size.height : size.width
            result.height = turned ? size.width : size.height
        }
        return result
    }
}

extension PhotoProperties {
    /// What a sidecar adds: its date where the photo has none of its own (only the file's mtime),
    /// its place where the photo has none.
    public mutating func complete(with sidecar: SidecarMetadata) {
        if date.source == .modificationTime, let taken = sidecar.date { date = taken }
        if location == nil { location = sidecar.location }
    }

    /// Whether a sidecar could add anything.
    public var lacksWhatSidecarsKeep: Bool { date.source == .modificationTime || location == nil }
}

/// A latitude and longitude in decimal degrees.
public struct Coordinates: Sendable, Equatable {
    public var latitude: Double
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// "lat,lon" with 6 decimals (about 0.1 m).
    public var text: String { Self.fixed6(latitude) + "," + Self.fixed6(longitude) }

    static func fixed6(_ value: Double) -> String {
        let micro = Int64((abs(value) * 1_000_000).rounded())
        let fraction = String(micro % 1_000_000)
        return (value < 0 && micro > 0 ? "-" : "") + String(micro / 1_000_000) + "." + String(repeating: "0", count: 6 - fraction.count) + fraction
    }
}

/// When a photo was taken, as its camera's clock said (local time), with the UTC offset when known.
public struct TakenDate: Sendable, Equatable {
    public var year, month, day, hour, minute, second: Int
    /// Minutes east of UTC, when known.
    public var offsetMinutes: Int?
    public var source: DateSource

    public init(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, offsetMinutes: Int?, source: DateSource) {
        (self.year, self.month, self.day, self.hour, self.minute, self.second) = (year, month, day, hour, minute, second)
        self.offsetMinutes = offsetMinutes
        self.source = source
    }

    /// The local date as a number, YYYYMMDD (what the timeline files photos under).
    public var dayNumber: Int { year * 10000 + month * 100 + day }

    /// ISO 8601: `2024-01-15T23:30:00-05:00`, or without the offset when it is not known.
    public var iso8601: String {
        var text = Self.pad(year, 4) + "-" + Self.pad(month, 2) + "-" + Self.pad(day, 2) + "T"
            + Self.pad(hour, 2) + ":" + Self.pad(minute, 2) + ":" + Self.pad(second, 2)
        if let offset = offsetMinutes {
            text += (offset < 0 ? "-" : "+") + Self.pad(abs(offset) / 60, 2) + ":" + Self.pad(abs(offset) % 60, 2)
        }
        return text
    }

    static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    /// The modification time in this machine's time zone, with its offset (`local`).
    public static func modificationTime(_ nanoseconds: Int64) -> TakenDate {
        local(nanoseconds >= 0 ? nanoseconds / 1_000_000_000 : (nanoseconds - 999_999_999) / 1_000_000_000, source: .modificationTime)
    }

    /// An EXIF date and time, "YYYY:MM:DD HH:MM:SS" (dashes and a T tolerated), or nil when it is
    /// blank, zero or not a real date.
    public static func exif(_ text: [UInt8], offset: [UInt8]?, source: DateSource) -> TakenDate? {
        func number(_ from: Int, _ count: Int) -> Int? { decimal(text, from, count) }
        guard text.count >= 19, [4, 7].allSatisfy({ text[$0] == 0x3A || text[$0] == 0x2D }), text[10] == 0x20 || text[10] == 0x54,
              text[13] == 0x3A, text[16] == 0x3A,
              let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
              let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
              year >= 1, (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
              hour < 24, minute < 60, second <= 60 else { return nil }
        return TakenDate(year: year, month: month, day: day, hour: hour, minute: minute, second: second,
                         offsetMinutes: offset.flatMap(Self.offset), source: source)
    }

    /// The number the `count` decimal digits at `from` in `text` write, or nil when they are not
    /// all digits or run past its end.
    static func decimal(_ text: [UInt8], _ from: Int, _ count: Int) -> Int? {
        guard from >= 0, from + count <= text.count else { return nil }
        var value = 0
        for byte in text[from..<(from + count)] {
            guard (0x30...0x39).contains(byte) else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        return value
    }

    /// "+HH:MM" / "-HH:MM" as minutes east of UTC.
    static func offset(_ text: [UInt8]) -> Int? {
        guard text.count >= 6, text[0] == 0x2B || text[0] == 0x2D, text[3] == 0x3A else { return nil }
        let digits = [text[1], text[2], text[4], text[5]]
        guard digits.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        let hours = Int(digits[0] - 0x30) * 10 + Int(digits[1] - 0x30), minutes = Int(digits[2] - 0x30) * 10 + Int(digits[3] - 0x30)
        guard hours <= 14, minutes < 60 else { return nil }
        return (text[0] == 0x2D ? -1 : 1) * (hours * 60 + minutes)
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}
