internal import CVideo
import Containers
import Posix

/// FFmpeg through its C bridge: a video file read with pread on `file` within a byte budget and a
/// deadline, its video stream chosen, then frames decoded one at a time and scaled to RGB. The
/// summary (`VideoSummary`) and the poster (Renditions' `VideoPoster`) both read through it.
public final class VideoDecoder {
    private let reader: OpaquePointer
    private let path: String
    public let container: String
    public let codec: String
    public let audioCodec: String?
    public let audioStreams: Int
    /// Nil for a file without a video stream.
    public let stream: Stream?
    /// Container duration (else the longest stream's), in seconds.
    public let duration: Double?
    /// Metadata tags of the container, in FFmpeg's names (QuickTime keys as `com.apple.quicktime.*`,
    /// the movie header's time as `creation_time`, `©xyz` as `location`), first of each name kept.
    public let tags: [String: String]

    /// What the video stream's header says.
    public struct Stream {
        public var size: PixelSize
        public var sampleAspect: (Int, Int)?
        public var displayMatrix: [Int32]?
        public var bits: Int
        public var transfer: Int

        /// `size` (the stream's or a frame's) with its width stretched by the sample aspect ratio:
        /// anamorphic video is shown at its display width.
        public func displaySize(of size: PixelSize) -> PixelSize {
            guard let (num, den) = sampleAspect, num > 0, den > 0, num != den else { return size }
            let width = (size.width * num * 2 + den) / (2 * den)
            return PixelSize(width: max(1, width), height: size.height)
        }
    }

    /// One decoded frame, valid until the next `decode`.
    public struct Frame {
        public var size: PixelSize
        public var interlaced: Bool
        public var seconds: Double?
        public var transfer, primaries, matrix: Int
        public var fullRange: Bool
        public var red, green, blue, white: (Double, Double)
        fileprivate var luma: UnsafePointer<UInt8>?
        fileprivate var lumaStride, step, bits: Int
    }

    public init(file: FileDescriptor, path: String, limits: VideoLimits) throws(VideoError) {
        guard let reader = avideo_new(file.rawValue, Int64(limits.byteBudget), limits.seconds, Int64(limits.maxPixels)) else {
            throw VideoError(.unreadable, path: path, reason: avideo_unavailable().map { String(cString: $0) } ?? "out of memory")
        }
        self.reader = reader
        self.path = path
        var info = avideo_info()
        let status = avideo_open(reader, &info)
        container = Self.text(&info.container)
        codec = Self.text(&info.codec)
        let audio = Self.text(&info.audio_codec)
        audioCodec = audio.isEmpty ? nil : audio
        audioStreams = Int(info.audio_streams)
        duration = info.duration_us >= 0 ? Double(info.duration_us) / 1_000_000 : nil
        if info.has_video != 0 {
            let matrix = withUnsafeBytes(of: info.matrix) { Array($0.bindMemory(to: Int32.self)) }
            stream = Stream(size: PixelSize(width: Int(info.width), height: Int(info.height)),
                            sampleAspect: info.sar_num > 0 ? (Int(info.sar_num), Int(info.sar_den)) : nil,
                            displayMatrix: info.has_matrix != 0 ? matrix : nil, bits: Int(info.bits), transfer: Int(info.transfer))
        } else {
            stream = nil
        }
        var tags: [String: String] = [:]
        var key: UnsafePointer<CChar>?, value: UnsafePointer<CChar>?
        for index in 0..<1000 {
            guard avideo_tag(reader, Int32(index), &key, &value) == 0, let key, let value else { break }
            tags[String(cString: key)] = tags[String(cString: key)] ?? String(cString: value)
        }
        self.tags = tags
        if status != 0 { throw failure() }
    }

    deinit { avideo_free(reader) }

    /// Opens the chosen stream's decoder, which refuses frames beyond the limits' `maxPixels`.
    public func openDecoder() throws(VideoError) {
        guard avideo_open_decoder(reader) == 0 else { throw failure() }
    }

    /// Seeks to the keyframe at or before `seconds`.
    public func seek(to seconds: Double) throws(VideoError) {
        guard avideo_seek(reader, Int64(seconds * 1_000_000)) == 0 else { throw failure() }
    }

    /// The next keyframe (or frame) within `packets` packets of the stream; nil when there is none.
    public func decode(keyframesOnly: Bool, packets: Int) throws(VideoError) -> Frame? {
        switch avideo_decode(reader, keyframesOnly ? 1 : 0, Int32(packets)) {
        case 0: break
        case 1: return nil
        default: throw failure()
        }
        var f = avideo_frame()
        guard avideo_current(reader, &f) == 0 else { throw VideoError(.unsupported, path: path, reason: "frames in an unusable pixel format") }
        return Frame(size: PixelSize(width: Int(f.width), height: Int(f.height)), interlaced: f.interlaced != 0,
                     seconds: f.pts_us == Int64.min ? nil : Double(f.pts_us) / 1_000_000,
                     transfer: Int(f.transfer), primaries: Int(f.primaries), matrix: Int(f.matrix), fullRange: f.full_range != 0,
                     red: (f.rx, f.ry), green: (f.gx, f.gy), blue: (f.bx, f.by), white: (f.wx, f.wy),
                     luma: f.luma, lumaStride: Int(f.luma_stride), step: Int(f.bytes_per_sample), bits: Int(f.bits))
    }

    /// The current frame scaled to `size` as RGB rows into `pixels`, its YUV read with `matrix`.
    public func scale(_ frame: Frame, to size: PixelSize, matrix: Int, into pixels: UnsafeMutablePointer<UInt8>) throws(VideoError) {
        guard avideo_scale(reader, Int32(size.width), Int32(size.height), frame.interlaced ? 1 : 0, Int32(matrix),
                           frame.fullRange ? 1 : 0, pixels, Int32(size.width * 3)) == 0 else { throw failure() }
    }

    private func failure() -> VideoError {
        VideoError.bridge(avideo_failure(reader), String(cString: avideo_error(reader)), path: path)
    }

    private static func text<T>(_ field: inout T) -> String {
        withUnsafeBytes(of: &field) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }

    public static var libraryVersion: String { String(cString: avideo_versions()) }
}

extension VideoDecoder.Frame {
    /// How far the frame is from one flat colour: the standard deviation of its first plane (luma)
    /// over a 64 × 64 grid of samples, as a fraction of the full scale. A black or faded-out frame
    /// is near 0; any picture is well above 0.02.
    public var spread: Double {
        guard let luma, size.width > 0, size.height > 0 else { return 0 }
        let grid = 64
        var sum = 0.0, squares = 0.0
        for gy in 0..<grid {
            let row = luma + (gy * size.height / grid) * lumaStride
            for gx in 0..<grid {
                let p = row + (gx * size.width / grid) * step
                let sample = bits > 8 ? Double(UInt16(p[0]) | UInt16(p[1]) << 8) : Double(p[0])
                sum += sample
                squares += sample * sample
            }
        }
        let n = Double(grid * grid), mean = sum / n
        return (max(0, squares / n - mean * mean)).squareRoot() / Double((1 << max(8, bits)) - 1)
    }
}
