import Glibc
import PhotoSource

/// The dates phones and apps write into the names of the files they make, for files that carry
/// none inside (a WhatsApp copy has its EXIF stripped; a clip's header may be blank). One
/// pattern per naming scheme, matched at the start of the name: its prefix, then its layout, where
/// `Y`, `M`, `D`, `h`, `m`, `s` are the date's digits, `#` any digit and anything else itself
/// (letters in either case); what follows must not be a digit, so a longer number is no date.
struct FileNameDatePattern {
    let prefix: String
    let layout: String
    /// A name it dates, for the table's readers and its tests.
    let example: String
    /// Whether the time is UTC (shown in the daemon's zone, `TakenDate.local`); else it is the
    /// phone's local time, kept as written.
    let isUTC: Bool

    static let all = [
        FileNameDatePattern(prefix: "IMG-", layout: "YYYYMMDD-WA####", example: "IMG-20240305-WA0002.jpg", isUTC: false),        // WhatsApp
        FileNameDatePattern(prefix: "VID-", layout: "YYYYMMDD-WA####", example: "VID-20240305-WA0002.mp4", isUTC: false),
        FileNameDatePattern(prefix: "WhatsApp Image ", layout: "YYYY-MM-DD at hh.mm.ss", example: "WhatsApp Image 2024-03-05 at 10.15.30.jpeg",
                            isUTC: false),                                                                                  // WhatsApp's exports
        FileNameDatePattern(prefix: "WhatsApp Video ", layout: "YYYY-MM-DD at hh.mm.ss", example: "WhatsApp Video 2024-03-05 at 10.15.30.mp4",
                            isUTC: false),
        FileNameDatePattern(prefix: "PXL_", layout: "YYYYMMDD_hhmmss###", example: "PXL_20230615_101010123.jpg", isUTC: true),    // Pixel
        FileNameDatePattern(prefix: "IMG_", layout: "YYYYMMDD_hhmmss", example: "IMG_20230909_120000.jpg", isUTC: false),         // Android cameras
        FileNameDatePattern(prefix: "VID_", layout: "YYYYMMDD_hhmmss", example: "VID_20230909_120000.mp4", isUTC: false),
        FileNameDatePattern(prefix: "Screenshot_", layout: "YYYYMMDD-hhmmss", example: "Screenshot_20240101-101010.png", isUTC: false),
        FileNameDatePattern(prefix: "Screenshot_", layout: "YYYY-MM-DD-hh-mm-ss", example: "Screenshot_2014-10-25-10-51-23.png", isUTC: false),
        FileNameDatePattern(prefix: "", layout: "YYYYMMDD_hhmmss", example: "20240112_214001.mp4", isUTC: false),                 // Samsung
    ]

    /// The date `name` starts with by this pattern, if it is a real one.
    func date(_ name: [UInt8]) -> TakenDate? {
        let prefix = Array(prefix.utf8), layout = Array(layout.utf8)
        guard name.count >= prefix.count + layout.count, zip(name, prefix).allSatisfy(Self.sameLetter) else { return nil }
        var fields: [UInt8: Int] = [:]
        for (byte, symbol) in zip(name[prefix.count...], layout) {
            let isDigit = (0x30...0x39).contains(byte)
            switch symbol {
            case UInt8(ascii: "#"): guard isDigit else { return nil }
            case UInt8(ascii: "Y"), UInt8(ascii: "M"), UInt8(ascii: "D"), UInt8(ascii: "h"), UInt8(ascii: "m"), UInt8(ascii: "s"):
                guard isDigit else { return nil }
                fields[symbol, default: 0] = fields[symbol, default: 0] * 10 + Int(byte - 0x30)
            default: guard Self.sameLetter(byte, symbol) else { return nil }
            }
        }
        let index = prefix.count + layout.count
        if index < name.count, (0x30...0x39).contains(name[index]) { return nil }
        func field(_ symbol: Unicode.Scalar) -> Int { fields[UInt8(ascii: symbol)] ?? 0 }
        let date = TakenDate(year: field("Y"), month: field("M"), day: field("D"), hour: field("h"), minute: field("m"),
                             second: field("s"), offsetMinutes: isUTC ? 0 : nil, source: .fileName)
        guard date.isPlausibleInAName else { return nil }
        return isUTC ? TakenDate.local(date.secondsSinceEpochTakingUTC, source: .fileName) : date
    }

    /// The same byte, or the same ASCII letter in either case.
    static func sameLetter(_ byte: UInt8, _ other: UInt8) -> Bool {
        byte == other || (byte | 0x20 == other | 0x20 && (0x61...0x7A).contains(byte | 0x20))
    }
}

extension TakenDate {
    /// The date in file name `name`, by the first pattern that dates it (`FileNameDatePattern`).
    public static func inFileName(_ name: [UInt8]) -> TakenDate? {
        FileNameDatePattern.all.lazy.compactMap { $0.date(name) }.first
    }

    /// A real calendar date and time from 2000 (before phones named files so) to a day from now
    /// (a clock a zone ahead): `IMG_20241399_…` or a serial number shaped like a date is none.
    var isPlausibleInAName: Bool {
        guard year >= 2000, (1...12).contains(month), day >= 1, day <= Self.daysIn(month: month, year: year),
              hour < 24, minute < 60, second < 60 else { return false }
        return secondsSinceEpochTakingUTC <= Int64(time(nil)) + 86_400
    }
}

extension PhotoProperties {
    /// The date in the file's name where neither the file nor a sidecar gave one (only the mtime):
    /// a name is set when the file is made, and survives copies that lose the mtime.
    public mutating func complete(withDateIn fileName: [UInt8]) {
        if date.source == .modificationTime, let named = TakenDate.inFileName(fileName) { date = named }
    }
}
