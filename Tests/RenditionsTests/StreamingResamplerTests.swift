import Containers
import Foundation
import Testing
@testable import Renditions

@Suite struct StreamingResamplerTests {
    @Test func keepsAnImageOfTheSameSizeAndAFlatColour() {
        // Same size: the identity. Downscaled: a flat colour stays exactly that colour.
        let size = PixelSize(width: 5, height: 4)
        let source: [UInt8] = (0..<(5 * 4 * 3)).map { UInt8(($0 * 37) % 256) }
        #expect(resample(source, from: size, to: size, channels: 3) == source)
        let flat = [UInt8](repeating: 200, count: 40 * 30)
        #expect(resample(flat, from: PixelSize(width: 40, height: 30), to: PixelSize(width: 7, height: 5), channels: 1)
                == [UInt8](repeating: 200, count: 35))
    }

    // Inputs that are not the same everywhere: a row-order, column-order or ring-buffer bug moves
    // values around, which a flat colour or the identity cannot show.

    /// value = 4 x column: each row the same left-to-right ramp.
    static func horizontalRamp(_ size: PixelSize, channels: Int) -> [UInt8] {
        var image: [UInt8] = []
        for _ in 0..<size.height {
            for x in 0..<size.width { for c in 0..<channels { image.append(UInt8((x * 4 + c * 20) % 256)) } }
        }
        return image
    }
    /// value = 4 x row: each column the same top-to-bottom ramp.
    static func verticalRamp(_ size: PixelSize, channels: Int) -> [UInt8] {
        var image: [UInt8] = []
        for y in 0..<size.height {
            for _ in 0..<size.width { for c in 0..<channels { image.append(UInt8((y * 4 + c * 20) % 256)) } }
        }
        return image
    }
    /// 8x8 squares of 30 and 220 (coarse enough to survive a 2-3x downscale).
    static func checkerboard(_ size: PixelSize, channels: Int, square: Int = 8) -> [UInt8] {
        var image: [UInt8] = []
        for y in 0..<size.height {
            for x in 0..<size.width {
                let value: UInt8 = (x / square + y / square) % 2 == 0 ? 30 : 220
                image += [UInt8](repeating: value, count: channels)
            }
        }
        return image
    }
    /// Every sample different: index-based noise that is neither a ramp nor periodic.
    static func scrambled(_ size: PixelSize, channels: Int) -> [UInt8] {
        (0..<(size.width * size.height * channels)).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761) >> 7) }
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var from: PixelSize, to: PixelSize, channels: Int
        var testDescription: String { "\(from.width)x\(from.height)→\(to.width)x\(to.height)x\(channels)" }
    }
    static let cases: [Case] = [
        Case(from: PixelSize(width: 48, height: 32), to: PixelSize(width: 17, height: 11), channels: 3),
        Case(from: PixelSize(width: 37, height: 61), to: PixelSize(width: 12, height: 20), channels: 1),
        Case(from: PixelSize(width: 64, height: 64), to: PixelSize(width: 64, height: 21), channels: 3),  // vertical only
        Case(from: PixelSize(width: 64, height: 40), to: PixelSize(width: 19, height: 40), channels: 3),  // horizontal only
        Case(from: PixelSize(width: 1, height: 90), to: PixelSize(width: 1, height: 13), channels: 1),   // one column
        Case(from: PixelSize(width: 90, height: 1), to: PixelSize(width: 13, height: 1), channels: 4),
        Case(from: PixelSize(width: 300, height: 200), to: PixelSize(width: 16, height: 11), channels: 3), // ring far wider than the output
        // RGB one and two pixels wide: the AVX2 pass's half pair and single pair (taps clamped at both edges)
        Case(from: PixelSize(width: 9, height: 6), to: PixelSize(width: 1, height: 2), channels: 3),
        Case(from: PixelSize(width: 9, height: 6), to: PixelSize(width: 2, height: 2), channels: 3),
    ]

    @Test(arguments: cases)
    func agreesWithAWholeImageReferenceOnRampsCheckerboardAndNoise(_ c: Case) {
        for (name, source) in [("horizontal ramp", Self.horizontalRamp(c.from, channels: c.channels)),
                               ("vertical ramp", Self.verticalRamp(c.from, channels: c.channels)),
                               ("checkerboard", Self.checkerboard(c.from, channels: c.channels)),
                               ("noise", Self.scrambled(c.from, channels: c.channels))] {
            let streamed = resample(source, from: c.from, to: c.to, channels: c.channels)
            let expected = Reference.resample(source, from: c.from, to: c.to, channels: c.channels)
            let worst = zip(streamed, expected).map { abs(Int($0) - Int($1)) }.max() ?? 0
            // Float accumulation against Double: rounding may differ by one level, nothing more.
            #expect(worst <= 1, "\(name): differs from the reference by up to \(worst)")
        }
    }

    @Test func rampsStayRampsAndRowsStayInOrder() {
        let from = PixelSize(width: 60, height: 50), to = PixelSize(width: 15, height: 12)
        let across = resample(Self.horizontalRamp(from, channels: 1), from: from, to: to, channels: 1)
        let down = resample(Self.verticalRamp(from, channels: 1), from: from, to: to, channels: 1)
        for y in 0..<to.height {
            let row = Array(across[(y * to.width)..<((y + 1) * to.width)])
            #expect(row == Array(across[0..<to.width]), "row \(y) of a horizontal ramp differs from row 0")
            #expect(zip(row, row.dropFirst()).allSatisfy { $0 < $1 }, "row \(y) is not increasing: \(row)")
        }
        let column = (0..<to.height).map { down[$0 * to.width] }
        #expect(zip(column, column.dropFirst()).allSatisfy { $0 < $1 }, "a vertical ramp is not increasing downwards: \(column)")
        for y in 0..<to.height {
            #expect(down[(y * to.width)..<((y + 1) * to.width)].allSatisfy { $0 == column[y] }, "row \(y) of a vertical ramp is not flat")
        }
        // A ramp of 0...196 keeps its ends near where they were: the first row dark, the last light.
        #expect(column.first! < 20 && column.last! > 176, "\(column)")
    }

    @Test func aSourceThatEndsEarlyRepeatsItsLastRow() {
        // 40 rows announced, 10 delivered (values 10 x row): the missing rows are row 9 again.
        let from = PixelSize(width: 4, height: 40), to = PixelSize(width: 4, height: 8)
        var delivered = (0..<10).flatMap { y in [UInt8](repeating: UInt8(10 * y), count: 4) }
        let streamed = resample(delivered, from: from, to: to, channels: 1, rowsAvailable: 10)
        delivered += [UInt8](repeating: 90, count: 4 * 30)
        #expect(streamed == Reference.resample(delivered, from: from, to: to, channels: 1))
    }

    private func resample(_ source: [UInt8], from: PixelSize, to: PixelSize, channels: Int, rowsAvailable: Int? = nil) -> [UInt8] {
        let resampler = StreamingResampler(from: from, to: to, channels: channels)
        var output: [UInt8] = []
        var row = 0
        let rows = rowsAvailable ?? from.height
        let rowLength = from.width * channels
        let input = UnsafeMutablePointer<UInt8>.allocate(capacity: rowLength)
        defer { input.deallocate() }
        resampler.run(nextRow: {
            guard row < rows else { return nil }
            for i in 0..<rowLength { input[i] = source[row * rowLength + i] }
            row += 1
            return UnsafePointer(input)
        }, emit: { made in
            output += UnsafeBufferPointer(start: made, count: to.width * channels)
        })
        #expect(output.count == to.width * to.height * channels, "rows handed out")
        return output
    }
}

/// The same separable Lanczos3 resample done the obvious way, written from the definition and not
/// from `LanczosFilter`: the whole image in memory, every input sample considered for every output
/// sample (weights outside the kernel are 0), horizontal pass then vertical, in Double.
/// Output sample i is centred at (i + 0.5) x in/out in input coordinates; input sample j sits at
/// j + 0.5; downscaling stretches the kernel by in/out; weights are normalised to sum to 1 over the
/// samples inside the image; the result is rounded half up and clamped to 0...255.
enum Reference {
    static func kernel(_ x: Double) -> Double {
        guard abs(x) < 3 else { return 0 }
        guard x != 0 else { return 1 }
        let a = Double.pi * x
        return 3 * sin(a) * sin(a / 3) / (a * a)
    }

    /// weights[i][j]: how much input j counts in output i.
    static func weights(from input: Int, to output: Int) -> [[Double]] {
        let step = Double(input) / Double(output)
        let stretch = max(1, step)
        return (0..<output).map { i in
            let centre = (Double(i) + 0.5) * step
            let raw = (0..<input).map { j in kernel((Double(j) + 0.5 - centre) / stretch) }
            let total = raw.reduce(0, +)
            return raw.map { $0 / total }
        }
    }

    static func resample(_ source: [UInt8], from: PixelSize, to: PixelSize, channels c: Int) -> [UInt8] {
        let across = weights(from: from.width, to: to.width), down = weights(from: from.height, to: to.height)
        // Horizontal: from.height rows of to.width samples.
        var wide = [Double](repeating: 0, count: from.height * to.width * c)
        for y in 0..<from.height { for x in 0..<to.width { for ch in 0..<c {
            var sum = 0.0
            for j in 0..<from.width { sum += across[x][j] * Double(source[(y * from.width + j) * c + ch]) }
            wide[(y * to.width + x) * c + ch] = sum
        } } }
        var result = [UInt8](repeating: 0, count: to.height * to.width * c)
        for y in 0..<to.height { for x in 0..<to.width { for ch in 0..<c {
            var sum = 0.0
            for j in 0..<from.height { sum += down[y][j] * wide[(j * to.width + x) * c + ch] }
            result[(y * to.width + x) * c + ch] = UInt8(min(255, max(0, (sum + 0.5).rounded(.down))))
        } } }
        return result
    }
}
