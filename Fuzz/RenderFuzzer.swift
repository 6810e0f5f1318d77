// libFuzzer entry point for the downscaler (`Renditions.Renderer`) and the properties readers. Built by Fuzz/build.sh,
// not by SwiftPM. Each input is written to an unlinked scratch file (the renderer reads by pread
// from a descriptor; memfd_create is hidden behind _GNU_SOURCE in Swift's Glibc module, so the
// file lives in /dev/shm, a tmpfs, when there is one) and rendered at two sizes (a video's poster
// at one). A RenditionError is the expected answer to hostile input; anything else — a trap, an
// ASan report, a leak (a large block not given back included), a hang, a budget reservation not
// given back — is a bug, and libFuzzer stops with the input saved.
import Containers
import Glibc
import LargeBlocks
import PhotoSource
import PhotoProperties
import Posix
import Renditions

/// FUZZ_FORMAT=png (webp, gif, tiff, heif, avif, raw, jpeg; mp4, mkv, avi, m2ts for videos): one
/// target per decoder. Inputs whose first bytes are another format are passed over at once, so
/// the time goes to that decoder (Fuzz/run.sh seeds it with that format's fixtures). Unset: every format.
private let onlyFormat: SourceFormat? = getenv("FUZZ_FORMAT").flatMap { SourceFormat(rawValue: String(cString: $0)) }

/// The target an input of `format` belongs to: the formats one FFmpeg demuxer reads share one
/// (MOV, M4V and 3GP are ISO BMFF brands, read by mov.c as MP4 is: the mp4 target; WebM is
/// Matroska with another DocType: the mkv target), so a mutated brand or DocType stays in.
private func target(_ format: SourceFormat?) -> SourceFormat? {
    switch format {
    case .quickTime?, .m4v?, .threeGPP?: .mp4
    case .webM?: .matroska
    default: format
    }
}

/// Tight limits: the seeds (Fuzz/seeds) are a few dozen pixels, so a cap of 1 megapixel keeps
/// every mutation's decode to a few milliseconds (a header claiming 65535 x 65535 is refused at
/// once, as the real cap refuses beyond 512 MP) while the paths behind the cap stay reachable.
private let budget = MemoryBudget(bytes: 64 << 20)
private let renderer = Renderer(limits: RenderLimits(maxPixels: 1_000_000, waitForMemory: false), budget: budget)
private let specs = [RenditionSpec(longestSide: 64, quality: 85), RenditionSpec(longestSide: 1920, quality: 85)]

/// One file reused for every input (truncated each time): no per-run descriptor churn.
nonisolated(unsafe) private var scratch: Int32 = -1

private func openScratchFile() -> Int32 {
    for directory in ["/dev/shm", "/tmp"] {
        var template = Array("\(directory)/render-fuzz-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { continue }
        _ = template.withUnsafeBufferPointer { unlink($0.baseAddress!) }
        return fd
    }
    fatalError("cannot create a scratch file in /dev/shm or /tmp: errno \(errno)")
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let head = Array(UnsafeBufferPointer(start: data, count: min(size, SourceFormat.headLength)))
    // RAW fixtures are sniffed with a RAW name: TIFF-signature RAWs are told by extension.
    let format = SourceFormat.sniff(head, fileName: Array((onlyFormat == .raw ? "input.nef" : "input").utf8))
    if let onlyFormat, target(format) != target(onlyFormat) { return 0 }
    if scratch < 0 { scratch = openScratchFile() }
    precondition(ftruncate(scratch, 0) == 0, "ftruncate failed: errno \(errno)")
    var written = 0
    while written < size {
        let n = pwrite(scratch, data + written, size - written, off_t(written))
        precondition(n > 0, "pwrite to the scratch file failed: errno \(errno)")
        written += n
    }
    let file = FileDescriptor(rawValue: scratch)
    let largeBlocksBefore = large_blocks_live()
    // A video's poster is the same decoded frame at either size: FFmpeg's open, stream analysis,
    // seek and decode ran twice for one frame (an MPEG-TS input spent 80 % of its time there), and
    // the two sizes differ only in the resampler, which every photo target covers at both.
    for spec in format?.isVideo == true ? [specs[0]] : specs {
        do {
            let rendition = try renderer.render(file, spec: spec, name: onlyFormat == .raw ? "fuzz-input.nef" : "fuzz-input")
            // What a successful render promises: a JPEG, no larger than the box, never empty.
            precondition(rendition.jpeg.count > 4 && rendition.jpeg[0] == 0xFF && rendition.jpeg[1] == 0xD8,
                         "render returned something that is not a JPEG")
            precondition(rendition.size.width >= 1 && rendition.size.height >= 1
                         && max(rendition.size.width, rendition.size.height) <= spec.longestSide,
                         "render returned size \(rendition.size) for \(spec)")
        } catch {
            _ = error.description  // the message must be formattable (exercises String(cString:) of the C message)
        }
        // Every path out of render must give its coefficient-memory reservation back.
        precondition(budget.unused == budget.capacity, "memory budget leaked: \(budget.capacity - budget.unused) bytes still reserved")
    }
    // The properties readers parse the same containers by themselves (HEIF's meta box, TIFF
    // IFDs, RIFF and PNG chunks, CR3 boxes; a video's container through FFmpeg, VideoProperties):
    // they never fail, so only a crash or hang is a bug.
    let properties = PhotoProperties.read(from: file, modificationNanoseconds: 0, format: format)
    precondition(properties.width.map { $0 > 0 } ?? true && properties.height.map { $0 > 0 } ?? true,
                 "properties with a size that is not positive: \(String(describing: properties.width))x\(String(describing: properties.height))")
    // The scanner's audio-only test walks an ISO media file's moov/trak/mdia/hdlr boxes itself.
    if format?.isISOMedia == true, let handlers = ISOBaseMediaFile.trackHandlers(of: file) {
        precondition(handlers.allSatisfy { $0.utf8.count <= 4 * 3 }, "a handler type longer than its 4 bytes: \(handlers)")
    }
    // Blocks of 128 KiB and up (FFmpeg's contexts, tables and buffers) are not LeakSanitizer's to
    // count (Fuzz/large_blocks.c): an input must give back every one it took.
    let largeBlocksLeft = large_blocks_live() - largeBlocksBefore
    precondition(largeBlocksLeft == 0, "\(largeBlocksLeft) blocks of 128 KiB or more still allocated after the input")
    return 0
}
