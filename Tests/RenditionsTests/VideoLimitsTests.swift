import Video
import Foundation
import Posix
import Testing
@testable import Renditions

/// The bounds of a video render: the pixel cap and the shared decode memory budget before
/// anything is decoded, the byte budget and the deadline while the file is read.
@Suite struct VideoLimitsTests {
    let file = "video/Android_gps_3frames.mp4"  // 1920x1080 H.264

    private func render(_ poster: VideoPoster) throws -> Rendition {
        let source = try OwnedFileDescriptor.openReadOnly(TestData.filePath(file))
        return try poster.render(source.descriptor, spec: RenditionSpec(longestSide: 256), name: file)
    }

    private func failure(_ poster: VideoPoster) -> RenditionError? {
        do { _ = try render(poster); return nil } catch { return error as? RenditionError }
    }

    @Test func framesOverThePixelCapAreRefused() {
        let error = failure(VideoPoster(renderer: Renderer(limits: RenderLimits(maxPixels: 1920 * 1080 - 1))))
        #expect(error?.kind == .tooManyPixels, "\(String(describing: error))")
    }

    /// The decode draws on the budget the image decoders share, by its rule (a decode larger than
    /// the whole budget runs alone; one that finds others holding it waits, or without waiting is
    /// refused); what it reserved is given back.
    @Test func theSharedMemoryBudgetIsHonoured() throws {
        let small = MemoryBudget(bytes: 8 << 20)
        _ = try render(VideoPoster(renderer: Renderer(budget: small)))
        #expect(small.unused == small.capacity, "a decode over the whole budget ran alone and gave it back")
        let budget = MemoryBudget(bytes: 64 << 20)
        let held = try budget.reserve(40 << 20, wait: false)
        #expect(failure(VideoPoster(renderer: Renderer(budget: budget)))?.kind == .overMemoryBudget, "others hold it: refused at once")
        held.release()
        _ = try render(VideoPoster(renderer: Renderer(budget: budget)))
        #expect(budget.unused == budget.capacity)
    }

    @Test func theByteBudgetStopsTheRead() {
        let error = failure(VideoPoster(limits: VideoLimits(byteBudget: 100_000)))
        #expect(error?.kind == .corrupt && error?.reason.contains("budget") == true, "\(String(describing: error))")
    }

    /// Past the deadline the read stops: a transient failure (EIO), tried again later.
    @Test func theDeadlineStopsTheRead() {
        let error = failure(VideoPoster(limits: VideoLimits(seconds: 0)))
        #expect(error?.kind == .unreadable && error?.reason.contains("timed out") == true, "\(String(describing: error))")
    }
}
