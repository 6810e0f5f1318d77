import Dispatch
import Glibc
import PhotoSource
import Posix
import RenditionCache
import Renditions

/// "Cache hit, else produce once, store, return" (as in Nuke's pipeline), the one place that
/// decides it. Identical in-flight requests are merged, so N readers of an uncached thumbnail cause
/// one render. Renders run on the scheduler's threads, at most `renderThreads` at once, thumbnails
/// and user requests before `warm`'s; callers are completed from those threads (or, for a file
/// still being written, once it has settled), never blocked on them. Writes to the cache go
/// through one serial lane, so neither a FUSE thread nor a render waits for the database's write
/// lock.
public final class RenditionPipeline: Sendable {
    public typealias Completion = @Sendable (Result<[UInt8], RenditionFailure>) -> Void

    let renderer: any RenditionMaking
    let sourceFiles: SourceFiles
    let cache: CacheConnection
    let statistics: Statistics
    let renders: Lane
    /// Serial: one write at a time, in order. Most urgent: a write is short, and until it is done
    /// the bytes are held in memory.
    private let writes: Lane
    /// Called with a photo that is not what the catalog says (gone, replaced): time to read its folder again.
    let onSourceChanged: @Sendable (FilePath) -> Void
    let state = Locked(State())
    private static let heldLimit = 32 << 20
    private static let knownSizesLimit = 1 << 18

    struct State {
        /// Sizes of renditions met this mount (bounded; the store has them all).
        var knownSizes: [CacheKey: Int] = [:]
        /// Broken photos' reasons until the store has them (for good when there is no store).
        var failures: [CacheKey: String] = [:]
        /// Why renditions were made from a preview the file carries, likewise.
        var previewReasons: [CacheKey: String] = [:]
        var inFlight: [CacheKey: InFlight] = [:]
        var rendersAsked: UInt64 = 0
        var waitersJoined: UInt64 = 0
        /// Rendered bytes not (yet) in the store: queued for the writer, or refused (disk full).
        var held: [(key: CacheKey, bytes: [UInt8])] = []
        var heldBytes = 0
        var warnedStoreFailure = false
        /// Failure messages already logged (they name the photo, not the rendition).
        var loggedFailures: Set<String> = []
        /// Renditions read since the LRU order was last written.
        var used: Set<CacheKey> = []
        var usedSince = ContinuousClock.now
        /// Renders that failed on a file still being written, waiting for it to settle
        /// (`judgeWhenSettled`), and how many of them are being judged now.
        var settling: Set<CacheKey> = []
        var judging = 0
        var stopping = false
    }

    init(renderer: any RenditionMaking, sourceFiles: SourceFiles, cache: CacheConnection, statistics: Statistics,
         scheduler: Scheduler, renderThreads: Int, onSourceChanged: @escaping @Sendable (FilePath) -> Void = { _ in }) {
        self.renderer = renderer
        self.sourceFiles = sourceFiles
        self.cache = cache
        self.statistics = statistics
        self.onSourceChanged = onSourceChanged
        renders = scheduler.lane(width: renderThreads, priority: .interactive, leftovers: .cancel)
        writes = scheduler.lane(width: 1, priority: .thumbnail, leftovers: .run)
    }

    /// The rendition's byte count: known (this mount, then the store), else after the one render
    /// of this key. Answers at once, on the caller's thread, when known.
    public func size(_ request: RenditionRequest, priority: WorkPriority = .interactive, interruption: Interruption.Source? = nil,
                     completion: @escaping @Sendable (Result<Int, RenditionFailure>) -> Void) {
        switch knownOutcome(request) {
        case .rendered(let size)?:
            Statistics.bump(statistics.cacheHits)
            completion(.success(size))
        case .failed(let reason)?:
            completion(.failure(.broken(reason: reason)))
        case nil:
            produceOnce(request, priority: priority, interruption: interruption) { completion($0.map(\.count)) }
        }
    }

    /// Up to `count` bytes from `offset`: read in place from the cache, else (never stored, or
    /// evicted since) from the one render of this key, which gives the same bytes again.
    public func read(_ request: RenditionRequest, offset: Int, count: Int, interruption: Interruption.Source? = nil,
                     completion: @escaping Completion) {
        let key = request.key
        @Sendable func slice(_ bytes: [UInt8]) -> [UInt8] {
            offset < bytes.count ? Array(bytes[offset..<min(bytes.count, offset + count)]) : []
        }
        if let held = state.withLock({ $0.held.last { $0.key == key }?.bytes }) { return completion(.success(slice(held))) }
        if let store = cache.store {
            do {
                if let bytes = try store.read(key, offset: offset, count: count) { return completion(.success(bytes)) }
            } catch {
                Log.warning("\(store.path): cache read failed: \(error)")
            }
        }
        if case .failed(let reason)? = knownOutcome(request) { return completion(.failure(.broken(reason: reason))) }
        produceOnce(request, priority: .interactive, interruption: interruption) { completion($0.map(slice)) }
    }

    /// Why the photo behind `request` cannot be rendered, or why its rendition was made from a
    /// preview the file carries, if either is known; never renders.
    public func knownReason(_ request: RenditionRequest) -> String? {
        let key = request.key
        let cause = state.withLock { $0.failures[key] ?? $0.previewReasons[key] } ?? (try? cache.store?.reason(for: key)) ?? nil
        return cause.map(request.told)
    }

    /// The keys of every failure known, and of every rendition made from a preview: this mount's,
    /// and the store's (which earlier mounts and `assetfs warm` left).
    public func failedKeys() -> Set<CacheKey> {
        let stored = ((try? cache.store?.failures()) ?? []).map(\.key)
        return state.withLock { Set($0.failures.keys).union($0.previewReasons.keys) }.union(stored)
    }

    /// Marks a rendition used (LRU), as it is opened or read from the start. Written in batches,
    /// by the writer: a write per read would cost more than the read.
    public func markUsed(_ request: RenditionRequest) {
        guard cache.isEnabled else { return }
        let batch: [CacheKey]? = state.withLock { state in
            state.used.insert(request.key)
            guard state.used.count >= 512 || ContinuousClock.now - state.usedSince > .seconds(10) else { return nil }
            defer { state.used = []; state.usedSince = .now }
            return Array(state.used)
        }
        if let batch { write { store throws(DatabaseError) in try store.markUsed(batch) } }
    }

    /// Stores what is stored under each `old` key under its `new` key too (a photo found to have
    /// copies: what was made of it is theirs), so nothing is rendered again for the new key.
    /// Returns once the writer has done it: false if it could not (the store failing, the mount
    /// stopping). The old keys stay until `assetfs cache prune` or eviction: a reader that saw
    /// the catalog before it named the new key finds the old one.
    public func copy(_ keys: [(old: CacheKey, new: CacheKey)]) -> Bool {
        guard cache.isEnabled, !keys.isEmpty else { return true }
        let copied = Locked<Bool?>(nil)
        writes.submit(Scheduler.Job(run: { [self] in
            do throws(DatabaseError) {
                try cache.store?.copy(keys)
                copied.withLock { $0 = true }
            } catch {
                noteStoreFailure(error)
                copied.withLock { $0 = false }
            }
        }, cancel: { copied.withLock { $0 = false } }))
        return copied.withLock(when: { $0 != nil }) { $0! }
    }

    /// Writes the pending LRU marks now, and waits until they (and every earlier write) are stored.
    public func flushUses() {
        let uses = state.withLock { state in
            defer { state.used = []; state.usedSince = .now }
            return Array(state.used)
        }
        if !uses.isEmpty { write { store throws(DatabaseError) in try store.markUsed(uses) } }
        waitForWrites()
    }

    /// Returns once the writer has done everything queued before this call.
    func waitForWrites() {
        let done = DispatchSemaphore(value: 0)
        writes.submit(Scheduler.Job(run: { done.signal() }, cancel: { done.signal() }))
        done.wait()
    }

    public enum WarmResult: Sendable, Equatable { case alreadyCached, rendered, failed(String) }

    /// For `assetfs warm`: makes sure the bytes are in the cache, without reading them. Warm work
    /// queues behind what people are waiting for. Rendered: this request started the render; one
    /// that joined it (a copy sharing its key) was already on its way into the cache.
    public func ensureStored(_ request: RenditionRequest, completion: @escaping @Sendable (WarmResult) -> Void) {
        if case .failed(let reason)? = knownOutcome(request) { return completion(.failed(reason)) }
        if (try? cache.store?.contains(request.key)) == true { return completion(.alreadyCached) }
        let started = Locked(false)
        produceOnce(request, priority: .warm, interruption: nil, onStarting: { started.withLock { $0 = true } }) { result in
            switch result {
            case .success: completion(started.withLock { $0 } ? .rendered : .alreadyCached)
            case .failure(.broken(let reason)), .failure(.unavailable(_, let reason)): completion(.failed(reason))
            }
        }
    }

    /// Stops rendering (queued requests fail, running ones finish), writes what is pending to the
    /// cache and checkpoints it. Nothing completes a request after this returns.
    public func shutdown() {
        renders.close()
        stopSettling()
        flushUses()
        writes.close()
        cache.store?.checkpoint()
    }

    // MARK: Producing

    /// Size or failure from this mount's memory, then the store (which `assetfs warm` also fills);
    /// a failure told as `request`'s.
    private func knownOutcome(_ request: RenditionRequest) -> Outcome? {
        let key = request.key
        var outcome = state.withLock { state in state.knownSizes[key].map(Outcome.rendered) ?? state.failures[key].map(Outcome.failed) }
        if outcome == nil, let store = cache.store, let stored = try? store.outcome(for: key) {
            if case .rendered(let size) = stored { remember(size, for: key) }
            outcome = stored
        }
        guard case .failed(let cause)? = outcome else { return outcome }
        return .failed(reason: request.told(cause))
    }

    private func remember(_ size: Int, for key: CacheKey) {
        state.withLock { state in
            if state.knownSizes.count >= Self.knownSizesLimit { state.knownSizes.removeAll(keepingCapacity: true) }
            state.knownSizes[key] = size
        }
    }

    /// Held in memory until the writer has stored it (or for good, within a limit, when it cannot),
    /// with why it is a preview when it is one.
    func keep(_ bytes: [UInt8], for key: CacheKey, previewReason: String?) {
        remember(bytes.count, for: key)
        hold(bytes, for: key)
        if let previewReason { state.withLock { $0.previewReasons[key] = previewReason } }
        guard cache.isEnabled else { return }
        write { [self] store throws(DatabaseError) in
            try store.store(bytes, for: key, previewReason: previewReason)
            state.withLock { state in
                state.previewReasons.removeValue(forKey: key)
                guard let index = state.held.firstIndex(where: { $0.key == key }) else { return }
                state.heldBytes -= state.held.remove(at: index).bytes.count
            }
        }
    }

    private func hold(_ bytes: [UInt8], for key: CacheKey) {
        state.withLock { state in
            state.held.append((key, bytes))
            state.heldBytes += bytes.count
            while state.heldBytes > Self.heldLimit, state.held.count > 1 {
                state.heldBytes -= state.held.removeFirst().bytes.count
            }
        }
    }

    /// Runs a cache write on the writer's lane; a failure is logged once and the mount goes on.
    func write(_ body: @escaping @Sendable (RenditionStore) throws(DatabaseError) -> Void) {
        writes.submit(Scheduler.Job(run: { [self] in
            guard let store = cache.store else { return }
            do throws(DatabaseError) { try body(store) } catch { noteStoreFailure(error) }
        }))
    }

    private func noteStoreFailure(_ error: DatabaseError) {
        let first = state.withLock { state in
            defer { state.warnedStoreFailure = true }
            return !state.warnedStoreFailure
        }
        if first { Log.warning("cannot store renditions in the cache (\(error)); serving them from memory") }
    }
}
