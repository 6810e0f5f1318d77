import Places
import PhotoSource
import SQLiteDatabase

/// The columns of a photo's stored properties, in the order they are selected, each with how
/// `CatalogStore.Properties` is written to it: the list `record` inserts, the list reads select
/// and the decoder all come from here.
enum PropertiesColumn: Int32, ColumnList {
    case date, dateSource, day, width, height, mediaType, camera, latitude, longitude, duration, codec, motionOffset, motionLength
    case liveIdentifier, keywords, people, rating, favorite, country, region, city, taken, contentID
    /// Selected only: the Live Photo movie a still is paired with (`live_pairs`), and what it
    /// lent the still (set by the pairing alone).
    case pairedMovie, lentByMovie

    /// From `properties`.
    var expression: String {
        switch self {
        case .date: "date"
        case .dateSource: "date_source"
        case .day: "day"
        case .width: "width"
        case .height: "height"
        case .mediaType: "media_type"
        case .camera: "camera"
        case .latitude: "latitude"
        case .longitude: "longitude"
        case .duration: "duration"
        case .codec: "codec"
        case .motionOffset: "motion_offset"
        case .motionLength: "motion_length"
        case .liveIdentifier: "live_id"
        case .keywords: "keywords"
        case .people: "people"
        case .rating: "rating"
        case .favorite: "favorite"
        case .country: "country"
        case .region: "region"
        case .city: "city"
        case .taken: "taken"
        case .contentID: "content_id"
        case .pairedMovie: "(SELECT movie FROM live_pairs WHERE still = properties.photo)"
        case .lentByMovie: "lent_by_movie"
        }
    }

    /// The columns `record` writes, in order.
    static let stored = allCases.filter { $0 != .pairedMovie && $0 != .lentByMovie }

    /// What `properties` stores in this column.
    func value(_ properties: CatalogStore.Properties) -> Database.Value {
        func integer(_ value: Int?) -> Database.Value { value.map { .integer(Int64($0)) } ?? .null }
        switch self {
        case .date: return .text(properties.date)
        case .dateSource: return .integer(Int64(properties.dateSource.rawValue))
        case .day: return integer(properties.day)
        case .width: return integer(properties.width)
        case .height: return integer(properties.height)
        case .mediaType: return properties.mediaType.map { .text($0) } ?? .null
        case .camera: return properties.camera.map { .blob($0) } ?? .null
        case .latitude: return properties.latitude.map { .real($0) } ?? .null
        case .longitude: return properties.longitude.map { .real($0) } ?? .null
        case .duration: return properties.duration.map { .real($0) } ?? .null
        case .codec: return properties.codec.map { .text($0) } ?? .null
        case .motionOffset: return properties.motion.map { .integer($0.lowerBound) } ?? .null
        case .motionLength: return properties.motion.map { .integer($0.upperBound - $0.lowerBound) } ?? .null
        case .liveIdentifier: return properties.liveIdentifier.map { .text($0) } ?? .null
        case .keywords: return properties.keywords.isEmpty ? .null : .blob(Array(Self.joined(properties.keywords.map { Self.joined($0, level: 1) }, level: 0).utf8))
        case .people: return properties.people.isEmpty ? .null : .blob(Array(Self.joined(properties.people, level: 0).utf8))
        case .rating: return integer(properties.rating)
        case .favorite: return .integer(properties.favorite ? 1 : 0)
        case .country: return properties.place.map { .text($0.country) } ?? .null
        case .region: return properties.place.map { .text($0.region) } ?? .null
        case .city: return properties.place.map { .text($0.city) } ?? .null
        case .taken: return properties.taken.map { .integer($0) } ?? .null
        case .contentID: return properties.contentID.map { .blob($0.digest) } ?? .null
        case .pairedMovie: return properties.pairedMovie.map { .integer($0) } ?? .null
        case .lentByMovie: return .integer(properties.lentByMovie.rawValue)
        }
    }

    /// Properties as a row of these columns stores them.
    static func properties(_ row: NamedRow<PropertiesColumn>) -> CatalogStore.Properties {
        // Every stored code is a case: a catalog of another schema version is converted or made anew.
        var result = CatalogStore.Properties(
            date: row.text(.date), dateSource: DateSource(rawValue: Int(row.integer(.dateSource))) ?? .modificationTime, day: Int(row.integer(.day)),
            width: row.optionalInteger(.width).map(Int.init), height: row.optionalInteger(.height).map(Int.init),
            mediaType: row.optionalText(.mediaType), camera: row.optionalBlob(.camera),
            latitude: row.isNull(.latitude) ? nil : row.double(.latitude), longitude: row.isNull(.longitude) ? nil : row.double(.longitude),
            duration: row.isNull(.duration) ? nil : row.double(.duration), codec: row.optionalText(.codec),
            motion: row.optionalInteger(.motionOffset).map { $0..<($0 + row.integer(.motionLength)) },
            liveIdentifier: row.optionalText(.liveIdentifier))
        result.keywords = Self.split(row.optionalBlob(.keywords).map(Self.text)).map { Self.split($0, level: 1) }
        result.people = Self.split(row.optionalBlob(.people).map(Self.text))
        result.rating = row.optionalInteger(.rating).map(Int.init)
        result.favorite = row.integer(.favorite) != 0
        if let country = row.optionalText(.country), let region = row.optionalText(.region), let city = row.optionalText(.city) {
            result.place = Place(country: country, region: region, city: city)
        }
        result.taken = row.optionalInteger(.taken)
        result.contentID = row.optionalBlob(.contentID).flatMap(ContentID.init(digest:))
        result.pairedMovie = row.optionalInteger(.pairedMovie)
        result.lentByMovie = CatalogStore.LentByMovie(rawValue: row.integer(.lentByMovie))
        return result
    }

    /// Lists are stored as UTF-8 in blobs (names are kept as written, and SQLite binds text only
    /// up to a NUL): items apart by U+001E, a keyword's levels by U+001F (control characters no
    /// name in the mount keeps).
    private static let separators: [Character] = ["\u{1E}", "\u{1F}"]

    private static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    private static func joined(_ items: [String], level: Int) -> String { items.joined(separator: String(separators[level])) }

    private static func split(_ text: String?, level: Int = 0) -> [String] {
        guard let text, !text.isEmpty else { return [] }
        return text.split(separator: separators[level], omittingEmptySubsequences: false).map(String.init)
    }
}
