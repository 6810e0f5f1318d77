/// An RGB colour space by the CIE xy of its primaries and white: the matrices that take its linear
/// light to CIE XYZ and across to another space's, for conversions done in Swift (`HDRToneMap`).
struct RGBPrimaries {
    var red, green, blue, white: (Double, Double)

    /// ITU-R BT.709, sRGB's primaries, D65.
    static let bt709 = RGBPrimaries(red: (0.64, 0.33), green: (0.30, 0.60), blue: (0.15, 0.06), white: (0.3127, 0.3290))

    init(red: (Double, Double), green: (Double, Double), blue: (Double, Double), white: (Double, Double)) {
        (self.red, self.green, self.blue, self.white) = (red, green, blue, white)
    }

    /// Nil unless every coordinate is inside 0...1 (exclusive), as real primaries are.
    init?(checking red: (Double, Double), green: (Double, Double), blue: (Double, Double), white: (Double, Double)) {
        guard [red.0, red.1, green.0, green.1, blue.0, blue.1, white.0, white.1].allSatisfy({ $0 > 0 && $0 < 1 }) else { return nil }
        self.init(red: red, green: green, blue: blue, white: white)
    }

    /// Linear RGB to XYZ (Y of white = 1); its middle row gives a colour's luminance. Nil for
    /// primaries that span no volume.
    var toXYZ: Matrix3? {
        let columns = Matrix3([red, green, blue].flatMap { xy -> [Double] in
            let c = Self.xyz(xy)
            return [c.0, c.1, c.2]
        }).transposed
        guard let inverse = columns.inverse else { return nil }
        let w = Self.xyz(white), s = inverse.times([w.0, w.1, w.2])
        return Matrix3((0..<9).map { columns.values[$0] * s[$0 % 3] })
    }

    /// Bradford chromatic adaptation of XYZ from one white to another (identity for the same white).
    static func bradford(from source: (Double, Double), to target: (Double, Double)) -> Matrix3 {
        let cone = Matrix3([0.8951, 0.2664, -0.1614, -0.7502, 1.7135, 0.0367, 0.0389, -0.0685, 1.0296])
        guard let back = cone.inverse else { return .identity }
        let (source, target) = (xyz(source), xyz(target))
        let s = cone.times([source.0, source.1, source.2]), t = cone.times([target.0, target.1, target.2])
        let scale = Matrix3([t[0] / s[0], 0, 0, 0, t[1] / s[1], 0, 0, 0, t[2] / s[2]])
        return back.times(scale).times(cone)
    }

    private static func xyz(_ xy: (Double, Double)) -> (Double, Double, Double) { (xy.0 / xy.1, 1, (1 - xy.0 - xy.1) / xy.1) }
}

/// A 3 × 3 matrix, row by row.
struct Matrix3 {
    var values: [Double]

    init(_ values: [Double]) { self.values = values }

    static let identity = Matrix3([1, 0, 0, 0, 1, 0, 0, 0, 1])

    var transposed: Matrix3 { Matrix3((0..<9).map { values[($0 % 3) * 3 + $0 / 3] }) }

    func times(_ other: Matrix3) -> Matrix3 {
        Matrix3((0..<9).map { i -> Double in
            let (row, column) = (i / 3, i % 3)
            return (0..<3).reduce(0.0) { sum, k in sum + values[row * 3 + k] * other.values[k * 3 + column] }
        })
    }

    func times(_ v: [Double]) -> [Double] {
        (0..<3).map { row -> Double in (0..<3).reduce(0.0) { sum, k in sum + values[row * 3 + k] * v[k] } }
    }

    /// Nil when singular.
    var inverse: Matrix3? {
        let m = values
        let cofactors = (0..<9).map { i -> Double in
            let (r, c) = (i / 3, i % 3)
            let (r1, r2, c1, c2) = ((r + 1) % 3, (r + 2) % 3, (c + 1) % 3, (c + 2) % 3)
            return m[r1 * 3 + c1] * m[r2 * 3 + c2] - m[r1 * 3 + c2] * m[r2 * 3 + c1]
        }
        let determinant = m[0] * cofactors[0] + m[1] * cofactors[1] + m[2] * cofactors[2]
        guard abs(determinant) > 1e-12 else { return nil }
        return Matrix3(cofactors).transposed.scaled(by: 1 / determinant)
    }

    private func scaled(by factor: Double) -> Matrix3 { Matrix3(values.map { $0 * factor }) }
}
