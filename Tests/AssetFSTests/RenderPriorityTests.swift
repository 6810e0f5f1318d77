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
        let photos = Dictionary(uniqueKeysWithValues: fs.catalog.read { $0.allRenditionSources() }.map { ($0.photo.fileName, $0.photo) })
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

/// A request whose caller goes (FUSE INTERRUPT) stops waiting at once, and its render follows who
/// is left: back to their priority, dropped when nobody waits and it had not started, finished
/// into the cache when it had (as Nuke's pipeline does when the last subscriber leaves).
@Suite struct InterruptedRenderTests {
    typealias RecordingRenderer = RenderPriorityTests.RecordingRenderer

    /// A pipeline with one render thread, over three photos, its renderer held until released.
    /// Unchecked: the fixture (its folder, removed at the end) is touched by the test's thread only.
    final class Bench: @unchecked Sendable {
        let fixture = Fixture(["A/one.jpg": "orientation/Landscape_1.jpg", "A/two.jpg": "orientation/Landscape_3.jpg",
                               "A/three.jpg": "orientation/Landscape_6.jpg"])
        let renderer = RecordingRenderer()
        let scheduler = Scheduler(threads: 2, name: "test")
        let pipeline: RenditionPipeline
        let requests: [String: RenditionRequest]
        let done = DispatchGroup()
        let results = Locked<[String: Result<Int, RenditionFailure>]>([:])

        init() throws {
            let fs = try fixture.fileSystem()
            let root = try fixture.source.resolved()
            requests = Dictionary(uniqueKeysWithValues: fs.catalog.read { $0.allRenditionSources() }.map {
                (String(decoding: $0.photo.fileName, as: UTF8.self), RenditionRequest(photo: $0.photo, spec: RenditionSpec(longestSide: 64)))
            })
            pipeline = RenditionPipeline(renderer: renderer, sourceFiles: SourceFiles(root: root, followSymlinks: false),
                                         cache: .none, statistics: Statistics(), scheduler: scheduler, renderThreads: 1)
        }

        /// Asks for the size of `name`, recording the result under `label`.
        func size(_ name: String, _ priority: WorkPriority, label: String? = nil, interruption: Interruption? = nil) {
            done.enter()
            var source: Interruption.Source?
            if let interruption { source = { interruption } }
            pipeline.size(requests[name]!, priority: priority, interruption: source) { [self] result in
                results.withLock { $0[label ?? name] = result }
                done.leave()
            }
        }

        /// Holds the render thread with `one.jpg`'s render.
        func holdTheRenderThread() {
            size("one.jpg", .interactive)
            while renderer.order.isEmpty { usleep(1000) }
        }

        func result(_ label: String) -> Result<Int, RenditionFailure>? { results.withLock { $0[label] } }

        func finish() -> [String] {
            renderer.release()
            done.wait()
            pipeline.shutdown()
            scheduler.shutdown()
            return renderer.order
        }
    }

    @Test func aQueuedRenderNobodyWaitsForIsDroppedAndItsCallerAnsweredAtOnce() throws {
        let bench = try Bench()
        bench.holdTheRenderThread()
        let reader = Interruption()
        bench.size("two.jpg", .thumbnail, interruption: reader)
        bench.size("three.jpg", .interactive)
        reader.interrupt()
        // Answered while the render thread is still held: it did not wait for a render.
        #expect(bench.result("two.jpg") == .failure(.unavailable(.interrupted, reason: "interrupted")))
        #expect(RequestFailure.interrupted.errno.rawValue == EINTR)
        #expect(bench.finish() == ["one.jpg", "three.jpg"], "two.jpg was rendered for nobody")
    }

    @Test func aRenderAnotherStillWaitsForGoesBackToTheirPriority() throws {
        let bench = try Bench()
        bench.holdTheRenderThread()
        bench.size("two.jpg", .warm, label: "warm")                 // assetfs warm: queued last
        bench.size("three.jpg", .interactive)                       // a fullscreen
        let reader = Interruption()
        bench.size("two.jpg", .thumbnail, label: "reader", interruption: reader)  // raises warm's render
        reader.interrupt()                                          // and leaves
        #expect(bench.result("reader") == .failure(.unavailable(.interrupted, reason: "interrupted")))
        #expect(bench.finish() == ["one.jpg", "three.jpg", "two.jpg"], "the render kept the priority of a reader that left")
        #expect(try bench.result("warm")?.get() ?? 0 > 0, "warm's render was not made")
    }

    @Test func aRunningRenderWhoseReaderLeftFinishesForTheNextOne() throws {
        let bench = try Bench()
        let reader = Interruption()
        bench.size("one.jpg", .interactive, label: "gone", interruption: reader)
        while bench.renderer.order.isEmpty { usleep(1000) }
        reader.interrupt()
        #expect(bench.result("gone") == .failure(.unavailable(.interrupted, reason: "interrupted")))
        bench.renderer.release()
        // Made for nobody, but made: the next request finds it without rendering again.
        while bench.pipeline.state.withLock({ !$0.inFlight.isEmpty }) { usleep(1000) }
        bench.size("one.jpg", .interactive, label: "next")
        #expect(bench.finish() == ["one.jpg"])
        #expect(try bench.result("next")?.get() ?? 0 > 0)
    }

    /// Interrupted before it waits (the kernel's INTERRUPT came first): the request never joins.
    @Test func anInterruptThatCameFirstAnswersAtOnce() throws {
        let bench = try Bench()
        bench.holdTheRenderThread()
        let reader = Interruption()
        reader.interrupt()
        bench.size("two.jpg", .thumbnail, interruption: reader)
        #expect(bench.result("two.jpg") == .failure(.unavailable(.interrupted, reason: "interrupted")))
        #expect(bench.finish() == ["one.jpg"])
    }
}
