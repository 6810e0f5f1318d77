import Containers
import Video
import Posix

/// A video's poster frame as a rendition: the same JPEG, sizes and errors as a photo's.
///
/// The frame is chosen as thumbnailers do: a keyframe at or before 10 % of the duration (at most
/// a minute in, so a long film costs no long seek), found through the container's index and
/// decoded alone. When that keyframe is near-uniform (a black opening, a white title card, a
/// fade) the frames after it are decoded up to the candidate's time, within a bound of frames and
/// of seconds of the stream, and the frame reached is taken unless it is near-uniform too: a clip
/// with one keyframe, black, still shows its picture. Then the next of a few later candidates is
/// tried; when all are uniform the first keyframe is kept (a black video has a black poster). A
/// clip too short for any of this (a few frames) gives its first frame. The same file always
/// gives the same frame and the same bytes: bounds counted in frames and stream time, not clock
/// time, one decoder thread, bit-exact scaling.
///
/// The frame is scaled down first (swscale, Lanczos, YUV read with the stream's matrix), then
/// converted to sRGB at the poster's size: HLG and PQ tone-mapped as HDR photos are
/// (`HDRTransfer`), other wide gamuts converted, then turned upright by the display matrix
/// (mirrors included), at its display aspect (sample aspect ratio), an interlaced frame read from
/// one field so it shows no combing. The codec's crop (H.264/HEVC conformance window) is applied
/// by the decoder; a container's `clap` box is not read (FFmpeg 5.1 ignores it).
public struct VideoPoster: Sendable {
    public var renderer: Renderer
    public var limits: VideoLimits

    /// `renderer` supplies the pixel cap, the shared decode memory budget and its wait rule.
    public init(renderer: Renderer = Renderer(), limits: VideoLimits = VideoLimits()) {
        self.renderer = renderer
        self.limits = limits
    }

    /// Where posters are looked for: fractions of the duration, each capped in seconds.
    static let candidates: [(fraction: Double, cap: Double)] = [(0.10, 60), (0.30, 180), (0.50, 300)]
    /// Below this spread (`VideoDecoder.Frame.spread`) a frame is taken as one flat colour.
    static let uniformSpread = 0.02
    /// Packets of the video stream read per candidate before giving up on it.
    static let packetsPerCandidate = 600
    /// From a near-uniform keyframe toward a candidate's time, frames decoded at most, and seconds
    /// of the stream past the keyframe: the frame at the bound is taken if the time is further.
    static let framesForward = 300
    static let secondsForward = 10.0

    /// The poster of the video open at `file` (read with pread only). `name` names it in errors,
    /// which are told as a video's ("corrupt video", "video too large"). A file without a video
    /// stream fails as `.unrecognised` (`VideoError.noPictures`).
    public func render(_ file: FileDescriptor, spec: RenditionSpec, name: String) throws(RenditionError) -> Rendition {
        do {
            return try poster(file, spec: spec, name: name)
        } catch {
            var error = error
            error.medium = .video
            throw error
        }
    }

    private func poster(_ file: FileDescriptor, spec: RenditionSpec, name: String) throws(RenditionError) -> Rendition {
        var limits = limits
        limits.maxPixels = min(limits.maxPixels, renderer.limits.maxPixels)
        let video = try told { () throws(VideoError) in try VideoDecoder(file: file, path: name, limits: limits) }
        guard let stream = video.stream else { throw RenditionError(VideoError.noPictures(path: name)) }
        try renderer.checkPixels(stream.size, name: name)
        let reservation = try renderer.reserve(decodeBytes(stream), for: "a video decode", name: name)
        defer { withExtendedLifetime(reservation) {} }
        try told { () throws(VideoError) in try video.openDecoder() }
        guard let frame = try told({ () throws(VideoError) in try chooseFrame(video) }) else {
            throw RenditionError(.corrupt, path: name, reason: "no frame could be decoded")
        }
        try renderer.checkPixels(frame.size, name: name)
        let orientation = stream.displayMatrix.map(Orientation.init(displayMatrix:)) ?? .up
        let display = stream.displaySize(of: frame.size)
        let upright = (orientation.swapsAxes ? display.transposed : display).fitted(longestSide: spec.longestSide)
        let target = orientation.swapsAxes ? upright.transposed : upright
        let pixels = UnsafeMutablePointer<UInt8>.allocate(capacity: target.width * target.height * 3)
        defer { pixels.deallocate() }
        try told { () throws(VideoError) in try video.scale(frame, to: target, matrix: Self.yuvMatrix(frame), into: pixels) }
        Self.colourTransform(frame)?.apply(pixels, count: target.width * target.height)
        let jpeg = try renderer.encode(pixels, stored: target, upright: upright, channels: 3, orientation: orientation,
                                       quality: spec.quality, name: name)
        return Rendition(jpeg: jpeg, size: upright, warnings: [])
    }

    /// The candidates in turn: the first keyframe that is not near-uniform, or the first frame
    /// decoded forward from a near-uniform one that is not; else the first keyframe found; the
    /// first frame in decoding order when no candidate gives a keyframe.
    private func chooseFrame(_ video: VideoDecoder) throws(VideoError) -> VideoDecoder.Frame? {
        let duration = video.duration ?? 0
        var first: Double?
        var seen: Set<Double> = []
        for candidate in Self.candidates where duration > 0 {
            let at = min(candidate.fraction * duration, candidate.cap)
            guard (try? video.seek(to: at)) != nil,
                  let keyframe = try video.decode(keyframesOnly: true, packets: Self.packetsPerCandidate) else { continue }
            let time = keyframe.seconds ?? at
            if first == nil { first = at }
            // The same keyframe again (a short clip, few keyframes) was judged already.
            if seen.insert(time).inserted && keyframe.spread >= Self.uniformSpread { return keyframe }
            if let frame = try decodeForward(video, to: at, from: time), frame.spread >= Self.uniformSpread { return frame }
        }
        if let first {
            try video.seek(to: first)
            if let frame = try video.decode(keyframesOnly: true, packets: Self.packetsPerCandidate) { return frame }
        }
        if duration > 0 { try? video.seek(to: 0) }
        return try video.decode(keyframesOnly: false, packets: Self.packetsPerCandidate)
    }

    /// The first frame at or after `at`, decoded from the keyframe (at `keyframe` seconds) at or
    /// before it, or the frame at the bounds (`framesForward`, `secondsForward`) when that comes
    /// first; nil when the stream ends before either.
    private func decodeForward(_ video: VideoDecoder, to at: Double, from keyframe: Double) throws(VideoError) -> VideoDecoder.Frame? {
        guard (try? video.seek(to: at)) != nil else { return nil }
        for decoded in 1...Self.framesForward {
            guard let frame = try video.decode(keyframesOnly: false, packets: Self.packetsPerCandidate) else { return nil }
            let time = frame.seconds ?? at  // no timestamp: taken as there
            if time >= at || time - keyframe >= Self.secondsForward || decoded == Self.framesForward { return frame }
        }
        return nil
    }

    /// Runs a read of the video, its failure told as a rendition's.
    private func told<T>(_ read: () throws(VideoError) -> T) throws(RenditionError) -> T {
        do { return try read() } catch { throw RenditionError(error) }
    }

    /// The YUV matrix (H.273) to read the frame with: its own, else BT.709 for HD and BT.601 for
    /// SD, as players guess. Identity (0) counts as unspecified: it is meant for RGB frames, which
    /// swscale reads without a matrix, so a YUV frame tagged so is mistagged.
    static func yuvMatrix(_ frame: VideoDecoder.Frame) -> Int {
        let unspecified = [0, 2, 3]
        guard unspecified.contains(frame.matrix) else { return frame.matrix }
        return frame.size.height >= 720 ? 1 : 6
    }

    /// HLG and PQ to SDR, other primaries to sRGB's; nil when the frame is already sRGB-like.
    static func colourTransform(_ frame: VideoDecoder.Frame) -> ColourTransform? {
        ColourTransform.from(nclxPrimaries: frame.primaries, transfer: frame.transfer, red: frame.red, green: frame.green,
                             blue: frame.blue, white: frame.white)
    }

    /// Memory a decode holds at its peak, from the header: one frame of the stream's size (1.5
    /// samples a pixel at 4:2:0, 2 bytes deeper than 8 bits), the decoder's tables for it and for
    /// the pictures an open GOP's keyframe names (about a byte a pixel each: HEVC's motion field
    /// and slice map; these pictures' own samples cost one row, see video_bridge.c), plus FFmpeg's
    /// other tables. Measured (bench/video-bench.sh, peak RSS above the idle process, the poster's
    /// RGB and JPEG included): 46 MB for a 4K 10-bit HEVC IDR (25 MB a frame; closed GOPs, as
    /// phones record), 69 MB for a CRA naming 4 pictures (x265's default open GOPs), 19 MB for
    /// 1080p H.264. This gives 83 MB and 30 MB.
    func decodeBytes(_ stream: VideoDecoder.Stream) -> Int {
        let sampleBytes = stream.bits > 8 || stream.bits == 0 ? 2 : 1
        let pixels = stream.size.width * stream.size.height
        return pixels * 3 / 2 * sampleBytes + pixels * 5 + (16 << 20)
    }

    /// What makes poster bytes differ between builds: the photo renderer's and FFmpeg's versions.
    public static var fingerprint: String { Renderer.fingerprint + " ffmpeg " + VideoDecoder.libraryVersion }
}

extension RenditionError {
    /// A video's failure as a rendition's, told as a video's: a file without pictures is not a
    /// supported file, a read error stays transient, the rest is the content's fault.
    public init(_ error: VideoError) {
        let kind: Kind = switch error.kind {
        case .unreadable: .unreadable
        case .unsupported: .unsupported
        case .corrupt: .corrupt
        case .noPictures: .unrecognised
        }
        self.init(kind, path: error.path, reason: error.reason, medium: .video)
    }
}
