import Containers
import PhotoSource
import Posix

extension ContentID {
    /// How much of a long picture's data is read. Data up to `wholeUpTo` is hashed whole; longer
    /// (a video, a huge TIFF), its length and `samples` slices of `sampleBytes` spread evenly over
    /// it, first and last included. JPEG scans are hashed whole, to their end.
    public struct Sampling: Sendable {
        var wholeUpTo: Int64
        var samples: Int
        var sampleBytes: Int

        /// At most 16 MiB read per file whatever its size: a 300 MB video costs 16 reads of 1 MiB.
        public static let standard = Sampling(wholeUpTo: 16 << 20, samples: 16, sampleBytes: 1 << 20)
    }

    /// The id of the picture open at `file`: the MD5 of its picture's data (`PictureData`), not of
    /// the file, so that metadata written into it leaves the id as it was (what ExifTool's
    /// `ImageDataHash` also hashes, by MD5 too, though not to the byte: a JPEG's EOI and the
    /// tables between a progressive JPEG's scans are hashed here, not there). Formats without a known layout of their
    /// picture (Matroska, AVI, MPEG streams, RAWs that are not TIFF or ISO), and files whose
    /// layout cannot be walked, are hashed whole with the same bound: an edit of their tags
    /// changes their id. Nil when the file cannot be read.
    public static func read(from file: FileDescriptor, format: SourceFormat, sampling: Sampling = .standard) -> ContentID? {
        // Reads ask for no more than the file holds: a read's buffer is as long as it asks.
        guard let size = try? file.status().size else { return nil }
        var md5 = MD5()
        switch pictureRegion(file, format) ?? .ranges([0..<size]) {
        case .jpegScans(let start):
            guard hashScans(file, from: start, to: size, pieceBytes: sampling.sampleBytes, into: &md5) else { return nil }
        case .ranges(let ranges):
            guard hash(ranges.map { $0.clamped(to: 0..<size) }, file, sampling, into: &md5) else { return nil }
        }
        return ContentID(digest: md5.finish())
    }

    static func pictureRegion(_ file: FileDescriptor, _ format: SourceFormat) -> PictureData.Region? {
        switch format {
        case .jpeg: return PictureData.jpeg(file)
        case .png: return PictureData.png(file)
        case .webp: return PictureData.webp(file)
        case .gif: return PictureData.gif(file)
        case .heif, .avif: return PictureData.heif(file)
        case .tiff: return PictureData.tiff(file)
        case .raw: return PictureData.tiff(file) ?? PictureData.mediaData(file)  // CR3 keeps its raw data in `mdat`
        default: return format.isISOMedia ? PictureData.mediaData(file) : nil
        }
    }

    /// Hashes the scans from `start` to EOI (or to `end`, the end of a file cut short).
    private static func hashScans(_ file: FileDescriptor, from start: Int64, to end: Int64, pieceBytes: Int, into md5: inout MD5) -> Bool {
        var scans = JPEGScanEnd(), offset = start
        while offset < end {
            guard let piece = try? file.read(upTo: Int(min(Int64(pieceBytes), end - offset)), at: offset) else { return false }
            let used = piece.withUnsafeBytes { bytes in
                let end = scans.end(in: bytes)
                md5.update(UnsafeRawBufferPointer(rebasing: bytes[..<(end ?? bytes.count)]))
                return end
            }
            if used != nil || piece.isEmpty { return true }
            offset += Int64(piece.count)
        }
        return true
    }

    /// Hashes `ranges` whole, or their length and samples of them past `sampling.wholeUpTo`.
    private static func hash(_ ranges: [Range<Int64>], _ file: FileDescriptor, _ sampling: Sampling, into md5: inout MD5) -> Bool {
        let total = ranges.reduce(0) { $0 + Int64($1.count) }, piece = Int64(sampling.sampleBytes)
        guard total > sampling.wholeUpTo else { return read(ranges, at: 0, count: total, pieceBytes: piece, file, into: &md5) }
        md5.update((0..<8).map { UInt8(truncatingIfNeeded: total >> (8 * Int64($0))) })
        let room = total - piece, last = Int64(sampling.samples - 1)
        return (0...last).allSatisfy { read(ranges, at: $0 * room / last, count: piece, pieceBytes: piece, file, into: &md5) }
    }

    /// Hashes `count` bytes from `offset` of the ranges put end to end, read a piece at a time.
    private static func read(_ ranges: [Range<Int64>], at offset: Int64, count: Int64, pieceBytes: Int64,
                             _ file: FileDescriptor, into md5: inout MD5) -> Bool {
        var skip = offset, left = count
        for range in ranges where left > 0 {
            guard skip < Int64(range.count) else { skip -= Int64(range.count); continue }
            var at = range.lowerBound + skip
            skip = 0
            while at < range.upperBound, left > 0 {
                guard let piece = try? file.read(upTo: Int(min(pieceBytes, range.upperBound - at, left)), at: at) else { return false }
                md5.update(piece)
                if piece.isEmpty { break }
                at += Int64(piece.count)
                left -= Int64(piece.count)
            }
        }
        return true
    }
}
