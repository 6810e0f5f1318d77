import Video
internal import CLCMS
import Foundation

/// A conversion of rendition pixels to sRGB with lcms2: from the source's ICC profile, or from
/// the primaries a HEIF `nclx` box names. Applied to the resampled output (as libvips does after
/// its shrink), so its cost is the rendition's size, not the source's.
final class ColourTransform {
    /// lcms2's transform, or the HDR tone mapping, which lcms2 cannot express (its curves work
    /// channel by channel).
    private enum Conversion {
        case lcms(OpaquePointer)
        case toneMap(HDRToneMap)
    }

    private let conversion: Conversion
    let channels: Int

    private init(_ transform: OpaquePointer, channels: Int) {
        (conversion, self.channels) = (.lcms(transform), channels)
    }

    private init(_ toneMap: HDRToneMap) {
        (conversion, channels) = (.toneMap(toneMap), 3)
    }

    deinit { if case .lcms(let transform) = conversion { alcms_free(transform) } }

    /// From an embedded profile, for pixels of `channels` (1 gray, 3 RGB). Nil when there is no
    /// profile, or lcms2 cannot use it, or it describes another colour space (a gray profile on
    /// RGB pixels, a CMYK one): the pixels are then taken as sRGB, as browsers do. Nil too for an
    /// sRGB profile, the one most cameras and phones embed: converting sRGB to sRGB took a 24 MP
    /// photo's 1920 px rendition from 93 to 160 ms of CPU to move no pixel by more than a level.
    static func from(icc: [UInt8]?, channels: Int) -> ColourTransform? {
        guard let icc, !icc.isEmpty else { return nil }
        guard channels != 3 || icc.withUnsafeBufferPointer({ alcms_is_srgb($0.baseAddress, $0.count) }) == 0 else { return nil }
        let made = icc.withUnsafeBufferPointer { alcms_from_icc($0.baseAddress, $0.count, Int32(channels)) }
        return made.map { ColourTransform($0, channels: channels) }
    }

    /// From nclx colour primaries and transfer (ITU-T H.273 code points). PQ and HLG (HDR) are
    /// tone-mapped to SDR by `HDRToneMap`, videos and photos alike; every other transfer is taken
    /// as sRGB's, and then sRGB/BT.709 primaries (1) and "unspecified" (2) need no conversion.
    static func from(nclxPrimaries primaries: Int, transfer: Int, red: (Double, Double), green: (Double, Double),
                     blue: (Double, Double), white: (Double, Double)) -> ColourTransform? {
        if let hdr = HDRTransfer(rawValue: transfer) {
            return HDRToneMap(hdr, red: red, green: green, blue: blue, white: white).map(ColourTransform.init)
        }
        guard primaries != 1 && primaries != 2 && primaries != 0,
              RGBPrimaries(checking: red, green: green, blue: blue, white: white) != nil,
              let made = alcms_from_primaries(red.0, red.1, green.0, green.1, blue.0, blue.1, white.0, white.1, nil, 0) else { return nil }
        return ColourTransform(made, channels: 3)
    }

    /// From Adobe RGB (1998), for pixels a camera says are in it without a profile of their own
    /// (EXIF colour space, DCF's "R03"): its primaries, D65 and a gamma of 563/256.
    static func fromAdobeRGB() -> ColourTransform? {
        let curve = (0..<4096).map { Float(pow(Double($0) / 4095, 563.0 / 256.0)) }
        let made = curve.withUnsafeBufferPointer { table in
            alcms_from_primaries(0.64, 0.33, 0.21, 0.71, 0.15, 0.06, 0.3127, 0.3290, table.baseAddress, Int32(table.count))
        }
        return made.map { ColourTransform($0, channels: 3) }
    }

    /// Converts `count` pixels in place.
    func apply(_ pixels: UnsafeMutablePointer<UInt8>, count: Int) {
        switch conversion {
        case .lcms(let transform): alcms_apply(transform, pixels, count)
        case .toneMap(let toneMap): toneMap.apply(pixels, count: count)
        }
    }

    /// lcms2's sRGB profile (IEC 61966-2-1), e.g. for a reference conversion by another program.
    static var sRGBProfile: [UInt8] {
        let size = alcms_srgb_profile(nil, 0)
        guard size > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: size)
        let written = bytes.withUnsafeMutableBufferPointer { alcms_srgb_profile($0.baseAddress, size) }
        return written == size ? bytes : []
    }

    static var libraryVersion: Int { Int(alcms_version()) }
}
