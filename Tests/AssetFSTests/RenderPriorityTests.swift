import Dispatch
import Glibc
import PhotoSource
import Posix
import Renditions
import Synchronization
import Testing
@testable import AssetFS

/// A render queued for `warm` that a person then asks for runs as soon as theirs would have: the
/// more urgent caller raises its queued job (as Nuke raises a task to its most urgent subscriber).
@Suite struct RenderPriorityTests {
    /// Renders in the order asked, the first held until released.
    final class RecordingRenderer: RenditionMaking, Sendable {
        private let gate = DispatchSemaphore(value: 0)
        private let names = Mutex<[String]>([])
        var order: [String] { names.withLock { $0 } }

        func release() { gate.signal() }

        func render(_ file: FileDescriptor, format: SourceFormat, spec: RenditionSpec, name: String) throws(RenditionError) -> Rendition {
            names.withLock { $0.append(String(decoding: FilePath(name).lastComponent, as: UTF8.self)) }
            gate.wait()
            gate.signal()
            return try Renderer().render(file, format: format, spec: spec, name: name)
        }
    }

    @Test func aThumbnailJoiningAQueuedWarmRenderRaisesItAheadOfQueuedFullscreens() throws {
        let fixture = Fixture(["A/one.jpg": "orientation/Landscape_1.jpg", "A/two.jpg": "orientation/Landscape_3.jpg",
                               "A/three.jpg": "orientation/Landscape_6.jpg"])
        let fs = try fixture.fileSystem()
        let photos = Dictionary(uniqueKeysWithValues: fs.catalog.allPhotos().map { ($0.fileName, $0) })
        let root = try fixture.source.resolved()
        func request(_ name: String) -> RenditionRequest {
            RenditionRequest(photo: photos[Array(name.utf8)]!, spec: RenditionSpec(longestSide: 64))
        }
        let renderer = RecordingRenderer()
        // One render at a time: the order in which queued renders start is the order of their priorities.
        let scheduler = Scheduler(threads: 2, name: "test")
        let pipeline = RenditionPipeline(renderer: renderer, sourceFiles: SourceFiles(root: root, followSymlinks: false),
                                         cache: .none, statistics: Statistics(), scheduler: scheduler, renderThreads: 1)
        let done = DispatchGroup()
        func size(_ name: String, _ priority: WorkPriority) {
            done.enter()
            pipeline.size(request(name), priority: priority) { _ in done.leave() }
        }
        size("one.jpg", .interactive)                                     // runs, held
        while renderer.order.isEmpty { usleep(1000) }
        done.enter()
        pipeline.ensureStored(request("two.jpg")) { _ in done.leave() }   // warm: queued last
        size("three.jpg", .interactive)                                   // a fullscreen: queued
        size("two.jpg", .thumbnail)                                       // a thumbnail joins warm's render
        renderer.release()
        done.wait()
        pipeline.shutdown()
        scheduler.shutdown()
        #expect(renderer.order == ["one.jpg", "two.jpg", "three.jpg"], "\(renderer.order)")
    }
}
