import Glibc
import PhotoSource

extension TakenDate {
    /// The instant `seconds` after the epoch as the daemon's time zone (TZ) shows it, with the
    /// offset that zone had at that instant (summer time included). The one rule for every date
    /// that names an instant but no zone: a file's mtime, a Takeout JSON's timestamp, a movie
    /// header's UTC time, a Pixel file name's. Shown in one zone, they file a photo and the clip
    /// filmed beside it under the same day.
    public static func local(_ seconds: Int64, source: DateSource) -> TakenDate {
        var time = time_t(seconds)
        var parts = tm()
        localtime_r(&time, &parts)
        return TakenDate(year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday),
                         hour: Int(parts.tm_hour), minute: Int(parts.tm_min), second: Int(parts.tm_sec),
                         offsetMinutes: Int(parts.tm_gmtoff) / 60, source: source)
    }

    /// The instant this date names, counting its wall-clock time as UTC where it has no offset
    /// (a movie header's, a Pixel file name's).
    var secondsSinceEpochTakingUTC: Int64 { localSeconds - Int64(offsetMinutes ?? 0) * 60 }

    /// Its wall-clock time read as UTC, in seconds since 1970: the local time events cluster by
    /// (a trip's photos in their own zone, whatever the zone of the one before).
    public var localSeconds: Int64 {
        var parts = tm()
        (parts.tm_year, parts.tm_mon, parts.tm_mday) = (Int32(year - 1900), Int32(month - 1), Int32(day))
        (parts.tm_hour, parts.tm_min, parts.tm_sec) = (Int32(hour), Int32(minute), Int32(second))
        return Int64(timegm(&parts))
    }
}
