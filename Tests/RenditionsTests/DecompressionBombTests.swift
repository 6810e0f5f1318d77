import Glibc
import Testing
import Posix
@testable import Renditions

/// malformed/bomb_49157x27397_progressive.jpg: 613 bytes whose progressive frame header claims 1.35 Gpx
/// (djpeg allocates ~3.4 GB for it). It must be refused from the header, before any large allocation.
@Suite struct DecompressionBombTests {
    static let bomb = "malformed/bomb_49157x27397_progressive.jpg"

    /// This process's peak resident set so far, in bytes.
    static func peakRSS() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return usage.ru_maxrss * 1024
    }

    static func render(with renderer: Renderer) -> (value: Result<Rendition, RenditionError>, seconds: Double)? {
        let path = TestData.filePath(bomb)
        return withHangGuard(seconds: 30, "rendering the bomb") {
            Result { () throws(RenditionError) in try renderer.render(path, spec: RenditionSpec(longestSide: 256)) }
        }
    }

    @Test func refusedByThePixelLimit() throws {
        let before = Self.peakRSS()
        let (result, seconds) = try #require(Self.render(with: Renderer()))
        #expect(throws: RenditionError.self) { try result.get() }
        if case .failure(let error) = result {
            #expect(error.kind == .tooManyPixels, "\(error)")
            #expect(error.reason.contains("49157x27397"))
        }
        #expect(seconds < 2, "took \(seconds) s")
        // Other tests run alongside, so allow for them; the bomb itself would add gigabytes.
        #expect(Self.peakRSS() - before < 1 << 30)
    }

    @Test(arguments: [false, true])
    func withoutAPixelLimitItIsOverTheMemoryCeiling(waitForMemory: Bool) throws {
        // The budget only throttles; what no render may hold (the ceiling, by default half the
        // machine's memory) refuses. 1 GiB here, whatever the machine: the bomb needs ~3.4 GB.
        let budget = MemoryBudget(bytes: 512 << 20, ceiling: 1 << 30)
        let renderer = Renderer(limits: RenderLimits(maxPixels: Int.max, waitForMemory: waitForMemory), budget: budget)
        let before = Self.peakRSS()
        // Even a renderer that waits for memory must not wait for more than the ceiling.
        let (result, seconds) = try #require(Self.render(with: renderer))
        if case .failure(let error) = result {
            #expect(error.kind == .overMemoryBudget, "\(error)")
        } else {
            Issue.record("the bomb rendered")
        }
        #expect(seconds < 2, "took \(seconds) s")
        #expect(budget.unused == budget.capacity)
        #expect(Self.peakRSS() - before < 1 << 30)
    }
}
