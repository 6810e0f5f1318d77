import Foundation
import Video

/// HDR to SDR for renditions of HEIF/AVIF whose nclx transfer is PQ (SMPTE ST 2084) or HLG
/// (ARIB STD-B67). Read as if SDR, such a photo looks dull and dark. Instead its signal is turned
/// into display light. The light is scaled so that HDR reference white (203 cd/m², ITU-R BT.2408)
/// is SDR white; there mid-tones keep their SDR level. Highlights above a knee are rolled off
/// smoothly up to the assumed 1000 cd/m² mastering peak. This works per channel, which
/// desaturates the brightest highlights a little, as simple tone mappers do.
extension HDRTransfer {
    /// cd/m² of HDR reference (diffuse) white.
    static let referenceWhite = 203.0
    /// The brightest light kept apart from white: the usual mastering peak of HDR photos.
    static let peak = 1000.0
    /// Below this (SDR linear light) nothing is changed; above it, up to `peak`, it is compressed.
    static let knee = 0.75

    /// Display light in cd/m² for a signal in 0...1.
    func displayLight(_ signal: Double) -> Double {
        let e = min(max(signal, 0), 1)
        switch self {
        case .pq:
            // ST 2084 EOTF.
            let m1 = 2610.0 / 16384, m2 = 2523.0 / 4096 * 128
            let c1 = 3424.0 / 4096, c2 = 2413.0 / 4096 * 32, c3 = 2392.0 / 4096 * 32
            let p = pow(e, 1 / m2)
            return 10000 * pow(max(p - c1, 0) / (c2 - c3 * p), 1 / m1)
        case .hlg:
            // BT.2100 inverse OETF, then the OOTF of a 1000 cd/m² display (gamma 1.2), per channel.
            let a = 0.17883277, b = 1 - 4 * a, c = 0.5 - a * log(4 * a)
            let scene = e <= 0.5 ? e * e / 3 : (exp((e - c) / a) + b) / 12
            return Self.peak * pow(scene, 1.2)
        }
    }

    /// SDR linear light (0...1, 1 = SDR white) for a signal in 0...1.
    func sdrLight(_ signal: Double) -> Double {
        let x = displayLight(signal) / Self.referenceWhite
        let k = Self.knee, top = Self.peak / Self.referenceWhite
        guard x > k else { return x }
        // t runs 0...1 from the knee to the peak; f rises with slope 1 at the knee (a = the
        // slope needed there) and reaches 1 at the peak: a soft shoulder, never clipping below it.
        let t = min((x - k) / (top - k), 1), a = (top - k) / (1 - k)
        return k + (1 - k) * (t * a / (1 + t * (a - 1)))
    }

    /// `sdrLight` sampled at `entries` evenly spaced signals, for an lcms2 tone curve.
    func toneCurve(entries: Int = 4096) -> [Float] {
        (0..<entries).map { Float(sdrLight(Double($0) / Double(entries - 1))) }
    }
}
