import Testing
@testable import Renditions

@Suite struct PixelSizeFittedTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var source: PixelSize, box: Int, expected: PixelSize
        var testDescription: String { "\(source) in \(box) → \(expected)" }
    }

    @Test(arguments: [
        // Ordinary landscape and portrait: 1200 * 128 / 1800 = 85.33 → 85.
        Case(source: PixelSize(width: 1800, height: 1200), box: 128, expected: PixelSize(width: 128, height: 85)),
        Case(source: PixelSize(width: 1200, height: 1800), box: 128, expected: PixelSize(width: 85, height: 128)),
        // 2/3 of 256 = 170.67 → 171.
        Case(source: PixelSize(width: 600, height: 900), box: 256, expected: PixelSize(width: 171, height: 256)),
        // Square.
        Case(source: PixelSize(width: 250, height: 250), box: 100, expected: PixelSize(width: 100, height: 100)),
        // Exact halves round up: 3 * 200 / 400 = 1.5 → 2; 5 * 200 / 400 = 2.5 → 3; 1 * 2 / 4 = 0.5 → 1.
        Case(source: PixelSize(width: 400, height: 3), box: 200, expected: PixelSize(width: 200, height: 2)),
        Case(source: PixelSize(width: 400, height: 5), box: 200, expected: PixelSize(width: 200, height: 3)),
        Case(source: PixelSize(width: 5, height: 400), box: 200, expected: PixelSize(width: 3, height: 200)),
        Case(source: PixelSize(width: 4, height: 1), box: 2, expected: PixelSize(width: 2, height: 1)),
        // Just below a half rounds down: 1199 * 100 / 1800 = 66.61 → 67, 1 * 100 / 300 = 0.33 → clamps to 1.
        Case(source: PixelSize(width: 1800, height: 1199), box: 100, expected: PixelSize(width: 100, height: 67)),
        Case(source: PixelSize(width: 299, height: 100), box: 1, expected: PixelSize(width: 1, height: 1)),
        // Never 0: extreme aspect ratios keep one pixel.
        Case(source: PixelSize(width: 1, height: 1000), box: 256, expected: PixelSize(width: 1, height: 256)),
        Case(source: PixelSize(width: 10000, height: 1), box: 16, expected: PixelSize(width: 16, height: 1)),
        // Never upscaled: smaller than the box, or exactly its size.
        Case(source: PixelSize(width: 1, height: 1), box: 256, expected: PixelSize(width: 1, height: 1)),
        Case(source: PixelSize(width: 100, height: 68), box: 256, expected: PixelSize(width: 100, height: 68)),
        Case(source: PixelSize(width: 256, height: 100), box: 256, expected: PixelSize(width: 256, height: 100)),
        Case(source: PixelSize(width: 4032, height: 3024), box: 5000, expected: PixelSize(width: 4032, height: 3024)),
    ])
    func fitsTheBox(_ c: Case) {
        #expect(c.source.fitted(longestSide: c.box) == c.expected)
    }

    @Test func agreesWithExactRationalRounding() {
        // Brute force against the definition: round(short * box / long) half up, at least 1, no upscaling.
        for long in [1, 2, 3, 7, 100, 257, 1000, 1800] {
            for short in Set([1, 2, long / 3, long / 2, long - 1, long].filter { $0 >= 1 && $0 <= long }) {
                for box in [1, 2, 3, 16, 100, 128, 256, 1000] {
                    let expectedShort = long <= box ? short : max(1, (2 * short * box + long) / (2 * long))
                    let expectedLong = min(long, box)
                    #expect(PixelSize(width: long, height: short).fitted(longestSide: box) == PixelSize(width: expectedLong, height: expectedShort))
                    #expect(PixelSize(width: short, height: long).fitted(longestSide: box) == PixelSize(width: expectedShort, height: expectedLong))
                }
            }
        }
    }

    /// 1/8 (DC only) must leave 2x the target, 1/4 and 1/2 (scaled IDCTs) 1.5x.
    @Test func shrinkOnLoadLeavesHeadroomForTheFinalFilter() {
        let stored = PixelSize(width: 1800, height: 1200)
        #expect(stored.shrinkOnLoadDenominator(toReach: PixelSize(width: 100, height: 67)) == 8)   // 225 >= 2 x 100
        #expect(stored.shrinkOnLoadDenominator(toReach: PixelSize(width: 128, height: 85)) == 4)   // 225 < 2 x 128
        #expect(stored.shrinkOnLoadDenominator(toReach: PixelSize(width: 300, height: 200)) == 4)  // 450 >= 1.5 x 300
        #expect(stored.shrinkOnLoadDenominator(toReach: PixelSize(width: 600, height: 400)) == 2)  // 900 >= 1.5 x 600
        #expect(stored.shrinkOnLoadDenominator(toReach: PixelSize(width: 1000, height: 667)) == 1)
        #expect(stored.shrinkOnLoadDenominator(toReach: stored) == 1)
        #expect(PixelSize(width: 1, height: 1000).shrinkOnLoadDenominator(toReach: PixelSize(width: 1, height: 256)) == 1)
    }
}
