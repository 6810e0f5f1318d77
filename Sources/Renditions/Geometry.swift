import Containers

extension PixelSize {
    /// The largest libjpeg DCT shrink (1/8, 1/4, 1/2 or 1) that decodes enough pixels for the final
    /// Lanczos filter not to alias. The 1/4 and 1/2 shrinks are scaled IDCTs, themselves band-limited
    /// downscales, so 1.5x the target is enough; 1/8 keeps only each block's DC value, a plain 8x8
    /// box average, so it needs 2x (as libvips always leaves). Measured against ImageMagick's Lanczos
    /// of the full decode in bench/render-bench.sh.
    func shrinkOnLoadDenominator(toReach target: PixelSize) -> Int {
        for denominator in [8, 4, 2] {
            let headroom = denominator == 8 ? 2.0 : 1.5
            let w = Double((width + denominator - 1) / denominator)
            let h = Double((height + denominator - 1) / denominator)
            if w >= headroom * Double(target.width) && h >= headroom * Double(target.height) { return denominator }
        }
        return 1
    }
}
