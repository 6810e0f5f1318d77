import Glibc
import Posix
import Testing
@testable import Renditions
import Video

/// Inputs found while fuzzing (Fuzz/crashes/): each must fail fast with a clear error.
@Suite struct FuzzRegressionTests {
    static let crashes = TestData.packageRoot.path + "/Fuzz/crashes"

    /// A legal progressive JPEG with 883 scans: each scan is a pass over the whole image, so the
    /// decode time grows with the scan count, not the file size. Refused past 100 scans.
    @Test func endlessScansAreRefused() throws {
        let clock = ContinuousClock()
        let start = clock.now
        #expect {
            _ = try Renderer().render(FilePath(Self.crashes + "/slow-progressive-883-scans-2048x2048.jpg"), spec: RenditionSpec(longestSide: 256))
        } throws: { error in
            (error as? RenditionError)?.reason.contains("too many scans") == true
        }
        #expect(clock.now - start < .seconds(30), "hang guard")
    }

    /// A damaged AVIF whose nclx colour profile libheif allocates and then refuses: the profile
    /// must be freed on that answer too (a leak AddressSanitizer reports in bench/sanitize.sh).
    @Test func aRefusedColourProfileIsFreed() {
        let path = FilePath(Self.crashes + "/leak-nclx-profile-on-error.avif")
        for size in [64, 1920] {
            do {
                let rendition = try Renderer().render(path, spec: RenditionSpec(longestSide: size))
                #expect(max(rendition.size.width, rendition.size.height) <= size)
            } catch {
                #expect(!error.reason.isEmpty)
            }
        }
    }

    /// A PNG whose tEXt chunk claims 1.8 GB: libpng only warns that a chunk is past its limit
    /// and allocates it anyway, so the bridge's allocator refuses, and says so in the error.
    @Test func aChunkClaimingGigabytesIsRefusedNotAllocated() {
        #expect {
            _ = try Renderer().render(FilePath(Self.crashes + "/oom-png-text-chunk-claims-1.8GB.png"), spec: RenditionSpec(longestSide: 256))
        } throws: { error in
            (error as? RenditionError)?.reason.contains("a chunk asked for 1819410552 bytes") == true
        }
    }

    /// A 767-byte HEIC whose damaged grid makes libheif assemble a canvas far larger than the
    /// 64x64 its header gives (what the pixel cap and the budget were checked against): reading
    /// its rows took 30 s. libheif is told the largest size to expect, and refuses the grid.
    @Test func aGridDecodingLargerThanItsHeaderIsRefused() {
        let clock = ContinuousClock()
        let start = clock.now
        #expect {
            _ = try Renderer().render(FilePath(Self.crashes + "/timeout-heif-grid-decodes-larger-than-its-header.heic"), spec: RenditionSpec(longestSide: 256))
        } throws: { error in
            (error as? RenditionError)?.kind == .corrupt
        }
        #expect(clock.now - start < .seconds(10), "hang guard")
    }

    /// A 1 KB fragmented MP4 on which FFmpeg 5.1's mov demuxer reallocs one table to 2 GB (the
    /// daemon peaked at 3.4 GB): no single FFmpeg allocation may pass 256 MiB, so it fails to open.
    @Test func aDemuxerAllocationOfGigabytesIsRefused() {
        #expect {
            _ = try Renderer().render(FilePath(Self.crashes + "/oom-ffmpeg-mov-fragment-2GB-realloc.mp4"), spec: RenditionSpec(longestSide: 256))
        } throws: { error in
            (error as? RenditionError)?.reason.contains("Cannot allocate memory") == true
        }
    }

    /// A 713-byte Matroska file whose header gives no frame size and whose VP8 frame claims
    /// 13584 x 13412 (182 MP): FFmpeg's stream analysis decoded it into frames it had zeroed,
    /// 270 MB (0.9 s a read under ASan), before any pixel cap was asked. The analysis now has the
    /// reader's cap, for the properties as for the poster. Measured as the pages this thread
    /// touched for the first time: about 66,000 before, a few hundred now.
    @Test(arguments: ["properties", "poster"])
    func aFrameClaimingGigapixelsIsNotAllocated(by reader: String) throws {
        let path = FilePath(Self.crashes + "/slow-matroska-vp8-frame-claims-13584x13412.mkv")
        let file = try OwnedFileDescriptor.openReadOnly(path)
        let before = Self.pagesFirstTouchedByThisThread()
        if reader == "properties" {
            _ = try? VideoSummary.read(file.descriptor, name: "claims.mkv")
        } else {
            _ = try? Renderer().render(file.descriptor, spec: RenditionSpec(longestSide: 256), name: "claims.mkv")
        }
        let touched = Self.pagesFirstTouchedByThisThread() - before
        #expect(touched < 10_000, "\(touched) pages (\(touched * 4 / 1024) MiB at 4 KiB) touched for the first time")
    }

    /// Minor page faults of the calling thread (getrusage's RUSAGE_THREAD, 1 on Linux): other
    /// tests running alongside do not count.
    static func pagesFirstTouchedByThisThread() -> Int {
        var usage = rusage()
        getrusage(__rusage_who_t(1), &usage)
        return usage.ru_minflt
    }

    /// libheif 1.19 asserts, aborting the process, when a seek fails as it opens a box: a
    /// container that points past the end of its file is read as zeros there, and fails as the
    /// content's fault (found by CI's fuzzing, heif and avif targets).
    @Test(arguments: ["crash-libheif-seek-past-end-asserts.heic", "crash-libheif-seek-past-end-asserts.avif"])
    func aContainerPointingPastItsEndFailsAsCorrupt(_ name: String) {
        do {
            let rendition = try Renderer().render(FilePath(Self.crashes + "/" + name), spec: RenditionSpec(longestSide: 256))
            Issue.record("\(name) rendered (\(rendition.size))")
        } catch {
            #expect(error.kind == .corrupt, "\(error)")
        }
    }
}
