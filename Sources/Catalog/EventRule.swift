import Glibc

/// How photos cluster into events (`events/<YYYY>/<event>/`), and what an event is called. Pure:
/// `CatalogStore+Events.swift` keeps the stored events what this rule gives.
///
/// Photos are ordered by the local time they were taken (then by id). Two consecutive photos are
/// *linked* when
/// - they are at most `sessionGap` (3 h) apart: one outing; or
/// - they are at most `nightGap` (24 h) apart, shooting was busy on both sides of the gap (the
///   `busyCount` (10) photos up to the first, and the 10 from the second on, each lie within
///   `busySpan` (12 h)), and, when both have a GPS position, they are less than `jumpDistance`
///   (100 km) apart.
///
/// An event is a run of linked photos. A trip, shot by the dozen every day, is one event across
/// its nights; someone who shoots a few photos every day gets an event per outing, never one
/// endless event; a day without photos always ends an event, and so does moving on overnight to
/// a place 100 km away (a multi-city trip is an event per city). Without GPS the rule cannot
/// tell a trip from home: someone who shoots ten photos within twelve hours every single day gets
/// events that run until a day without photos. The rule is busy-ness on each side of a night,
/// not a gap compared with the library's: it adapts to how densely each stretch was shot while a
/// link reads only the `reach` photos on each side of it, so a photo added, moved or removed
/// changes only the links near it, whatever the rest of the library holds.
public enum EventRule {
    static let sessionGap: Int64 = 3 * 3600
    static let nightGap: Int64 = 24 * 3600
    static let busyCount = 10
    static let busySpan: Int64 = 12 * 3600
    static let jumpDistance = 100_000.0

    /// How many photos on each side of a link (the two it joins included) decide it.
    static let reach = busyCount

    /// A photo as the rule sees it: when it was taken (local seconds since 1970, the wall clock
    /// read as UTC) and where, if its GPS says so.
    struct Photo: Equatable {
        var taken: Int64
        var latitude: Double?
        var longitude: Double?
    }

    /// The link between each two consecutive `photos` (taken order): `links[i]` joins `photos[i]`
    /// and `photos[i + 1]`. A link needs `reach` photos on each side: where the slice does not
    /// hold them, it is nil, unless that side of the slice is where the whole sequence starts
    /// (`fromStart`) or ends (`toEnd`).
    static func links(_ photos: [Photo], fromStart: Bool, toEnd: Bool) -> [Bool?] {
        guard photos.count > 1 else { return [] }
        return (0..<photos.count - 1).map { i in
            let before = max(0, i - reach + 1), after = min(photos.count, i + 1 + reach)
            guard fromStart || i - before == reach - 1, toEnd || after - (i + 1) == reach else { return nil }
            return linked(photos[before...i], photos[(i + 1)..<after])
        }
    }

    /// Whether the last of `before` and the first of `after` are linked (each side holds up to
    /// `reach` photos, fewer only where the sequence ends).
    private static func linked(_ before: ArraySlice<Photo>, _ after: ArraySlice<Photo>) -> Bool {
        let (a, b) = (before.last!, after.first!)
        let gap = b.taken - a.taken
        if gap <= sessionGap { return true }
        guard gap <= nightGap, before.count >= busyCount, after.count >= busyCount,
              a.taken - before.first!.taken <= busySpan, after.last!.taken - b.taken <= busySpan else { return false }
        guard let la = a.latitude, let oa = a.longitude, let lb = b.latitude, let ob = b.longitude else { return true }
        return distance(la, oa, lb, ob) < jumpDistance
    }

    /// Great-circle distance in metres (haversine, mean Earth radius).
    static func distance(_ latitude1: Double, _ longitude1: Double, _ latitude2: Double, _ longitude2: Double) -> Double {
        let radians = Double.pi / 180
        let dLat = (latitude2 - latitude1) * radians, dLon = (longitude2 - longitude1) * radians
        let h = sin(dLat / 2) * sin(dLat / 2) + cos(latitude1 * radians) * cos(latitude2 * radians) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * 6_371_000 * asin(min(1, h.squareRoot()))
    }

    // MARK: Names

    /// The local day (days since 1970-01-01) a photo taken at `taken` is of.
    static func day(_ taken: Int64) -> Int64 { taken >= 0 ? taken / 86400 : (taken + 1) / 86400 - 1 }

    /// The name of the year folder of `day`: an event is shown under the year of its first day
    /// (one over New Year is in the year it began).
    static func yearName(ofDay day: Int64) -> [UInt8] { ViewPath.yearName(civil(day).year) }

    /// `2023-09-01 – 2023-09-05 Bergen`; one day: `2023-09-01 Bergen`; without a place, the dates
    /// alone. The place is escaped as places/ names it, and the name fitted in `limit` bytes.
    static func name(firstDay: Int64, lastDay: Int64, place: String?, limit: Int = Naming.maxNameBytes) -> [UInt8] {
        var name = dayName(firstDay)
        if lastDay != firstDay { name += Array(" – ".utf8) + dayName(lastDay) }
        if let place = place.flatMap(ViewPath.folderName) { name += [UInt8(ascii: " ")] + place }
        return Naming.fitted(name, limit: limit)
    }

    /// The place an event is named after: the city most of its photos were taken in; between
    /// cities as frequent, the one it reached first (`firstTaken`).
    static func mainPlace(_ cities: [(city: String, count: Int, firstTaken: Int64)]) -> String? {
        cities.min { ($1.count, $0.firstTaken, $0.city) < ($0.count, $1.firstTaken, $1.city) }?.city
    }

    /// `2023-09-01`, as dates/ names a day.
    static func dayName(_ day: Int64) -> [UInt8] {
        let (year, month, dayOfMonth) = civil(day)
        return ViewPath.dayName(year * 10000 + month * 100 + dayOfMonth)
    }

    /// The proleptic Gregorian date of `day` (Howard Hinnant's days-to-civil).
    private static func civil(_ day: Int64) -> (year: Int, month: Int, day: Int) {
        let z = day + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let month = mp < 10 ? mp + 3 : mp - 9
        return (Int(yearOfEra + era * 400 + (month <= 2 ? 1 : 0)), Int(month), Int(dayOfYear - (153 * mp + 2) / 5 + 1))
    }
}
