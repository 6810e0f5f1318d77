import Containers
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

    /// The nearest whole number to the fraction `numerator / denominator` (both > 0), halves up, found
    /// by walking k up from 0 and comparing with exact integer cross-multiplication: k is the answer
    /// when k - 1/2 <= n/d < k + 1/2, i.e. (2k - 1) d <= 2n < (2k + 1) d. A different route from
    /// `fitted`'s closed formula, so a wrong formula (truncation, rounding half down, an operand
    /// swapped) disagrees with it.
    static func nearest(_ numerator: Int, over denominator: Int) -> Int {
        var k = 0
        while !((2 * k - 1) * denominator <= 2 * numerator && 2 * numerator < (2 * k + 1) * denominator) { k += 1 }
        return k
    }

    @Test func referenceRoundingMatchesHandWorkedCases() {
        #expect(Self.nearest(1, over: 2) == 1)       // 0.5 → 1 (half up)
        #expect(Self.nearest(3, over: 2) == 2)       // 1.5 → 2
        #expect(Self.nearest(1, over: 3) == 0)       // 0.33 → 0
        #expect(Self.nearest(2, over: 3) == 1)       // 0.67 → 1
        #expect(Self.nearest(153_600, over: 1800) == 85)  // 1200 * 128 / 1800 = 85.33
        #expect(Self.nearest(119_900, over: 1800) == 67)  // 1199 * 100 / 1800 = 66.61
    }

    @Test func agreesWithExactRationalRounding() {
        // Against the definition, computed independently: the long side becomes min(long, box); the
        // short side the nearest whole number to short * box / long (halves up), at least 1; a
        // source that already fits is returned unchanged.
        for long in [1, 2, 3, 7, 100, 257, 1000, 1800, 4032] {
            for short in Set([1, 2, 3, long / 3, long / 2, (2 * long) / 3, long - 1, long].filter { $0 >= 1 && $0 <= long }) {
                for box in [1, 2, 3, 16, 100, 128, 256, 1000, 2048] {
                    let fits = long <= box
                    let expectedLong = fits ? long : box
                    let expectedShort = fits ? short : max(1, Self.nearest(short * box, over: long))
                    // The rounding really is to the nearest: no other whole number is closer.
                    if !fits && expectedShort > 1 {
                        let error = abs(expectedShort * long - short * box)
                        #expect(error <= abs((expectedShort - 1) * long - short * box))
                        #expect(error <= abs((expectedShort + 1) * long - short * box))
                    }
                    #expect(PixelSize(width: long, height: short).fitted(longestSide: box) == PixelSize(width: expectedLong, height: expectedShort),
                            "\(long)x\(short) in \(box)")
                    #expect(PixelSize(width: short, height: long).fitted(longestSide: box) == PixelSize(width: expectedShort, height: expectedLong),
                            "\(short)x\(long) in \(box)")
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
