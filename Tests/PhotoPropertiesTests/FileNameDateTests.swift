import PhotoSource
import Testing
@testable import PhotoProperties

/// Dates in the names phones and apps give files (`FileNameDatePattern`): every pattern's own
/// example, and names that look like one but hold no real date.
@Suite struct FileNameDateTests {
    func date(_ name: String) -> String? { TakenDate.inFileName(Array(name.utf8)).map(\.iso8601) }

    @Test func everyPatternDatesItsExample() {
        // A Pixel names its files by UTC: shown in this process's zone, as an mtime is.
        let pixel = TakenDate.local(1_686_823_810, source: .fileName).iso8601  // 2023-06-15T10:10:10Z
        let expected = ["IMG-20240305-WA0002.jpg": "2024-03-05T00:00:00", "VID-20240305-WA0002.mp4": "2024-03-05T00:00:00",
                        "PXL_20230615_101010123.jpg": pixel, "IMG_20230909_120000.jpg": "2023-09-09T12:00:00",
                        "VID_20230909_120000.mp4": "2023-09-09T12:00:00", "Screenshot_20240101-101010.png": "2024-01-01T10:10:10",
                        "20240112_214001.mp4": "2024-01-12T21:40:01", "Screenshot_2014-10-25-10-51-23.png": "2014-10-25T10:51:23",
                        "WhatsApp Image 2024-03-05 at 10.15.30.jpeg": "2024-03-05T10:15:30",
                        "WhatsApp Video 2024-03-05 at 10.15.30.mp4": "2024-03-05T10:15:30"]
        #expect(Set(FileNameDatePattern.all.map(\.example)) == Set(expected.keys), "each pattern is tested by its example")
        for (name, date) in expected {
            #expect(self.date(name) == date, "\(name)")
            #expect(TakenDate.inFileName(Array(name.utf8))?.source == .fileName)
        }
        // What phones add after the date, and the case a copy may change.
        #expect(date("20240112_214001(0).jpg") == "2024-01-12T21:40:01")
        #expect(date("Screenshot_20240101-101010_Chrome.jpg") == "2024-01-01T10:10:10")
        #expect(date("IMG_20230909_120000_HDR.jpg") == "2023-09-09T12:00:00")
        #expect(date("img-20240305-wa0002.jpeg") == "2024-03-05T00:00:00")
        #expect(date("PXL_20230615_101010123.MP.jpg") == pixel)
    }

    @Test(arguments: ["IMG_20241399_120000.jpg",      // month 13
                      "IMG_20240230_120000.jpg",      // February 30th
                      "IMG_20230229_120000.jpg",      // not a leap year
                      "VID_20230909_246000.mp4",      // hour 24
                      "Screenshot_20240101-106010.png",  // minute 60
                      "20240112_2140011.mp4",         // a longer number
                      "120240112_214001.mp4",
                      "19991231_235959.jpg",          // before phones named files so
                      "20991231_120000.jpg",          // the future
                      "IMG-20240305-WA.jpg", "IMG-20240305.jpg", "IMG-20240305-WB0002.jpg",
                      "PXL_20230615_101010.jpg",      // a Pixel's milliseconds missing
                      "WhatsApp Image 2024-03-05 at 10.15.jpeg", "Screenshot_2014-10-25-10-51.png",
                      "IMG_2023-09-09_120000.jpg", "DSC_20230909_120000.jpg", "IMG_1234.jpg", "2024.jpg", ""])
    func aNameWithoutARealDateHasNone(_ name: String) {
        #expect(date(name) == nil, "\(name): \(date(name) ?? "")")
    }
}
