import Foundation
import Video

/// HDR to SDR for renditions whose transfer is PQ (SMPTE ST 2084) or HLG (ARIB STD-B67): HEIF and
/// AVIF photos by their nclx box, video posters by their stream. Read as if SDR, such a picture
/// looks dull and dark. Instead its signal is turned into display light, scaled so that 160 cd/m²
/// is SDR white (`sdrWhiteLight`). Light above a knee (half of that) is rolled off smoothly up to
/// the assumed 1000 cd/m² mastering peak, so that few pixels clip.
/// The roll-off is applied to a pixel's brightest channel and the same factor to all three, as
/// FFmpeg's tonemap and libplacebo do, so that colours keep their hue; rolled off channel by
/// channel, an HLG chart's orange came out yellow and a third of its pixels clipped.
extension HDRTransfer {
    /// cd/m² of HDR light shown as SDR white, before the roll-off. Below BT.2408's HDR reference
    /// white (203 cd/m²), which left PQ posters 15 % darker than the same frames through ffmpeg's
    /// usual chain (zscale, npl=100, Möbius): at 160 the shared HDR clips' mean luma is within 10 %
    /// of it at 1920 px (HLG -5 %, Dolby Vision -5 %, PQ -10 %), and reference white comes out at
    /// 0.82 of SDR white.
    static let sdrWhiteLight = 160.0
    /// The brightest light kept apart from white: the usual mastering peak of HDR photos.
    static let peak = 1000.0
    /// Below this (SDR linear light) nothing is changed; above it, up to `peak`, it is compressed.
    static let knee = 0.5
    /// The peak relative to reference white: where the roll-off reaches SDR white.
    static let top = peak / sdrWhiteLight
    /// HLG's system gamma on a 1000 cd/m² display (BT.2100).
    static let hlgSystemGamma = 1.2

    /// Display light in cd/m² of a grey (equal channels) of signal 0...1.
    func displayLight(_ signal: Double) -> Double {
        switch self {
        case .pq: Self.sdrWhiteLight * channelLight(signal)
        case .hlg: Self.peak * pow(channelLight(signal), Self.hlgSystemGamma)
        }
    }

    /// What one channel's signal (0...1) stands for: PQ's display light relative to reference
    /// white (ST 2084 EOTF); HLG's scene light in 0...1 (BT.2100 inverse OETF), to which the
    /// display's OOTF is applied by the pixel's luminance (`HDRToneMap`).
    func channelLight(_ signal: Double) -> Double {
        let e = min(max(signal, 0), 1)
        switch self {
        case .pq:
            let m1 = 2610.0 / 16384, m2 = 2523.0 / 4096 * 128
            let c1 = 3424.0 / 4096, c2 = 2413.0 / 4096 * 32, c3 = 2392.0 / 4096 * 32
            let p = pow(e, 1 / m2)
            return 10000 * pow(max(p - c1, 0) / (c2 - c3 * p), 1 / m1) / Self.sdrWhiteLight
        case .hlg:
            let a = 0.17883277, b = 1 - 4 * a, c = 0.5 - a * log(4 * a)
            return e <= 0.5 ? e * e / 3 : (exp((e - c) / a) + b) / 12
        }
    }

    /// SDR linear light (0...1, 1 = SDR white) of a grey of signal 0...1.
    func sdrLight(_ signal: Double) -> Double {
        Self.rollOff(displayLight(signal) / Self.sdrWhiteLight)
    }

    /// Light relative to reference white, compressed above the knee so that the peak is SDR white.
    /// t runs 0...1 from the knee to the peak; the shoulder rises with slope 1 at the knee (a = the
    /// slope needed there) and reaches 1 at the peak, never clipping below it.
    static func rollOff<F: BinaryFloatingPoint>(_ x: F) -> F {
        let k = F(knee), top = F(Self.top)
        guard x > k else { return x }
        let t = min((x - k) / (top - k), 1), a = (top - k) / (1 - k)
        return k + (1 - k) * (t * a / (1 + t * (a - 1)))
    }
}

/// The tone mapping of 8-bit RGB signal in HDR primaries to sRGB, per pixel: each channel's light
/// from a table, HLG's OOTF by luminance, the primaries converted in linear light (BT.2020 colours
/// outside sRGB lose their negative parts, as zscale's conversion does), then the brightest
/// channel rolled off and the same factor applied to the others, and sRGB's curve from a table.
struct HDRToneMap {
    private let hlgLuminance: (Float, Float, Float)?
    private let light: [Float]
    private let toSRGB: [Float]
    /// HLG's OOTF gain by scene luminance (0...1) in `steps` + 1 entries: powf per pixel cost more
    /// than the rest of the mapping.
    private let hlgGain: [Float]
    /// The roll-off's factor (`HDRTransfer.rollOff(x) / x`) from the knee to the peak in `steps` + 1
    /// entries: its divisions were most of the mapping's time.
    private let rollOffFactor: [Float]
    /// sRGB's 8-bit code by linear light (0...1) in `steps` + 1 entries.
    private let encoded: [UInt8]
    private static let steps = 4095
    /// Pixels mapped so far, by their 24-bit value (the mapping is a function of it, and a frame
    /// repeats its colours): a direct-mapped table, of one render (one thread at a time).
    private let memo = Memo()

    final class Memo {
        static let size = 1 << 16
        var keys = [UInt32](repeating: .max, count: size)
        var values = [UInt32](repeating: 0, count: size)
    }

    init?(_ transfer: HDRTransfer, red: (Double, Double), green: (Double, Double), blue: (Double, Double), white: (Double, Double)) {
        guard let source = RGBPrimaries(checking: red, green: green, blue: blue, white: white)?.toXYZ,
              let srgb = RGBPrimaries.bt709.toXYZ, let fromXYZ = srgb.inverse else { return nil }
        let adapt = RGBPrimaries.bradford(from: white, to: RGBPrimaries.bt709.white)
        toSRGB = fromXYZ.times(adapt).times(source).values.map(Float.init)
        hlgLuminance = transfer == .hlg ? (Float(source.values[3]), Float(source.values[4]), Float(source.values[5])) : nil
        light = (0..<256).map { Float(transfer.channelLight(Double($0) / 255)) }
        hlgGain = (0...Self.steps).map { step in
            Float(HDRTransfer.top * pow(Double(step) / Double(Self.steps), HDRTransfer.hlgSystemGamma - 1))
        }
        rollOffFactor = (0...Self.steps).map { step in
            let x = HDRTransfer.knee + (HDRTransfer.top - HDRTransfer.knee) * Double(step) / Double(Self.steps)
            return Float(HDRTransfer.rollOff(x) / x)
        }
        encoded = (0...Self.steps).map { step in
            let v = Double(step) / Double(Self.steps)
            let e = v <= 0.0031308 ? 12.92 * v : 1.055 * pow(v, 1 / 2.4) - 0.055
            return UInt8((e * 255).rounded())
        }
    }

    /// Maps `count` RGB pixels in place.
    func apply(_ pixels: UnsafeMutablePointer<UInt8>, count: Int) {
        let (m0, m1, m2, m3, m4, m5) = (toSRGB[0], toSRGB[1], toSRGB[2], toSRGB[3], toSRGB[4], toSRGB[5])
        let (m6, m7, m8) = (toSRGB[6], toSRGB[7], toSRGB[8])
        let steps = Float(Self.steps), knee = Float(HDRTransfer.knee), top = Float(HDRTransfer.top)
        let perStep = steps / (top - knee)
        light.withUnsafeBufferPointer { light in
            hlgGain.withUnsafeBufferPointer { gain in
                rollOffFactor.withUnsafeBufferPointer { rollOff in
                    encoded.withUnsafeBufferPointer { encoded in
                      memo.keys.withUnsafeMutableBufferPointer { keys in
                        memo.values.withUnsafeMutableBufferPointer { values in
                        for i in 0..<count {
                            let p = pixels + i * 3
                            let key = UInt32(p[0]) << 16 | UInt32(p[1]) << 8 | UInt32(p[2])
                            let slot = Int((key ^ (key >> 8) ^ (key >> 16) &* 0x9E37) & UInt32(Memo.size - 1))
                            if keys[slot] == key {
                                let v = values[slot]
                                (p[0], p[1], p[2]) = (UInt8(truncatingIfNeeded: v >> 16), UInt8(truncatingIfNeeded: v >> 8), UInt8(truncatingIfNeeded: v))
                                continue
                            }
                            var r = light[Int(p[0])], g = light[Int(p[1])], b = light[Int(p[2])]
                            if let (lr, lg, lb) = hlgLuminance {
                                let s = gain[Int(min(max(lr * r + lg * g + lb * b, 0), 1) * steps + 0.5)]
                                (r, g, b) = (r * s, g * s, b * s)
                            }
                            var out = (max(0, m0 * r + m1 * g + m2 * b), max(0, m3 * r + m4 * g + m5 * b), max(0, m6 * r + m7 * g + m8 * b))
                            let brightest = max(out.0, out.1, out.2)
                            if brightest > knee {  // below, the roll-off changes nothing
                                let scale = brightest >= top ? 1 / brightest : rollOff[Int((brightest - knee) * perStep + 0.5)]
                                out = (out.0 * scale, out.1 * scale, out.2 * scale)
                            }
                            p[0] = encoded[Int(min(out.0, 1) * steps + 0.5)]
                            p[1] = encoded[Int(min(out.1, 1) * steps + 0.5)]
                            p[2] = encoded[Int(min(out.2, 1) * steps + 0.5)]
                            keys[slot] = key
                            values[slot] = UInt32(p[0]) << 16 | UInt32(p[1]) << 8 | UInt32(p[2])
                        }
                        }
                      }
                    }
                }
            }
        }
    }
}
