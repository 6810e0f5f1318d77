/// A binary PGM (P5, 1 channel) or PPM (P6, 3 channels) image with 8-bit samples, and the
/// comparisons the tests make on decoded pixels.
struct PNM: Equatable, CustomStringConvertible {
    enum Failure: Error, CustomStringConvertible {
        case malformed(String)
        case tool(String)
        var description: String {
            switch self {
            case let .malformed(why): "not a binary PNM: \(why)"
            case let .tool(why): why
            }
        }
    }

    var width: Int
    var height: Int
    var channels: Int
    var samples: [UInt8]

    init(width: Int, height: Int, channels: Int, samples: [UInt8]) {
        self.width = width
        self.height = height
        self.channels = channels
        self.samples = samples
    }

    init(_ bytes: [UInt8]) throws {
        var index = 0
        func token() throws -> String {
            // Whitespace and '#' comments separate the header's four tokens.
            while index < bytes.count {
                if bytes[index] == UInt8(ascii: "#") {
                    while index < bytes.count && bytes[index] != UInt8(ascii: "\n") { index += 1 }
                } else if [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) {
                    index += 1
                } else { break }
            }
            let start = index
            while index < bytes.count && ![0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
            guard index > start else { throw Failure.malformed("header ends early") }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }
        let magic = try token()
        guard magic == "P5" || magic == "P6" else { throw Failure.malformed("magic \(magic)") }
        guard let width = Int(try token()), let height = Int(try token()), let maxValue = Int(try token()),
              width > 0, height > 0 else { throw Failure.malformed("bad dimensions") }
        guard maxValue == 255 else { throw Failure.malformed("maxval \(maxValue), want 255") }
        index += 1 // the single whitespace byte after maxval
        let channels = magic == "P5" ? 1 : 3
        let count = width * height * channels
        guard bytes.count - index >= count else { throw Failure.malformed("\(bytes.count - index) sample bytes, want \(count)") }
        self.init(width: width, height: height, channels: channels, samples: Array(bytes[index..<(index + count)]))
    }

    var description: String { "\(width)x\(height)x\(channels)" }

    subscript(x: Int, y: Int, c: Int) -> UInt8 { samples[(y * width + x) * channels + c] }

    /// The same image mirrored left-right.
    var mirrored: PNM { transformed(width: width, height: height) { x, y in (width - 1 - x, y) } }
    /// The same image mirrored top-bottom.
    var flipped: PNM { transformed(width: width, height: height) { x, y in (x, height - 1 - y) } }
    /// The same image turned 180°.
    var turned: PNM { transformed(width: width, height: height) { x, y in (width - 1 - x, height - 1 - y) } }

    /// The same image turned a quarter clockwise.
    var turnedClockwise: PNM { transformed(width: height, height: width) { x, y in (y, height - 1 - x) } }
    /// The same image turned a quarter anticlockwise.
    var turnedAnticlockwise: PNM { transformed(width: height, height: width) { x, y in (width - 1 - y, x) } }

    private func transformed(width: Int, height: Int, _ source: (Int, Int) -> (Int, Int)) -> PNM {
        var out = [UInt8](repeating: 0, count: width * height * channels)
        for y in 0..<height {
            for x in 0..<width {
                let (sx, sy) = source(x, y)
                for c in 0..<channels { out[(y * width + x) * channels + c] = self[sx, sy, c] }
            }
        }
        return PNM(width: width, height: height, channels: channels, samples: out)
    }

    /// Mean absolute difference per sample (0-255) with an image of the same size and channels,
    /// or nil when they do not have the same shape.
    func meanAbsoluteError(_ other: PNM) -> Double? {
        guard width == other.width, height == other.height, channels == other.channels else { return nil }
        var total = 0
        for i in samples.indices { total += abs(Int(samples[i]) - Int(other.samples[i])) }
        return Double(total) / Double(samples.count)
    }
}
