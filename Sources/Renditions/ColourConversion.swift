/// Turns a decoded row into the samples the resampler takes: a copy for gray and RGB, and
/// CMYK → RGB for 4-component sources (libjpeg-turbo converts YCCK to CMYK but not to RGB).
/// Adobe software stores CMYK inverted (0 = full ink); others store it plain.
struct ColourConversion {
    let decoderComponents: Int
    let adobeInverted: Bool

    @inline(__always)
    func convert(_ source: UnsafeMutablePointer<UInt8>, into destination: UnsafeMutablePointer<UInt8>, pixels: Int) {
        guard decoderComponents == 4 else {
            destination.update(from: source, count: pixels * decoderComponents)
            return
        }
        for i in 0..<pixels {
            var c = Int(source[i * 4]), m = Int(source[i * 4 + 1]), y = Int(source[i * 4 + 2]), k = Int(source[i * 4 + 3])
            if !adobeInverted { c = 255 - c; m = 255 - m; y = 255 - y; k = 255 - k }
            // Inverted samples are "how much paper shows": R = (255 - C)(255 - K) in plain terms.
            destination[i * 3] = UInt8((c * k + 127) / 255)
            destination[i * 3 + 1] = UInt8((m * k + 127) / 255)
            destination[i * 3 + 2] = UInt8((y * k + 127) / 255)
        }
    }
}
