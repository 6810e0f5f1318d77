import PhotoSource
import Posix
import RenditionCache
import Renditions
import Synchronization

/// Why a rendition is not available: the photo cannot be rendered (cached, logged once).
public struct RenditionUnavailable: Error, Sendable, CustomStringConvertible {
    public var reason: String
    public var description: String { reason }
}

/// "Cache hit, else produce once, store, return" (as in Nuke's pipeline). Identical in-flight
/// requests are merged, so N readers of an uncached thumbnail cause one render. Renders run on a
/// small pool; callers are completed from that pool, never blocked on it.
public final class RenditionPipeline: Sendable {
    public typealias Completion = @Sendable (Result<[UInt8], RenditionUnavailable>) -> Void

    private let renderer: Renderer
    private let store: RenditionStore?
    private let statistics: Statistics
    private let pool: WorkerPool
    private struct State {
        var outcomes: [CacheKey: Outcome] = [:]
        var inFlight: [CacheKey: [Completion]] = [:]
        /// Renditions the store could not keep (disk full): served from memory, newest last.
        var unstored: [(key: CacheKey, bytes: [UInt8])] = []
        var warnedStoreFailure = false
        /// Failure messages already logged (they name the photo, not the rendition).
        var loggedFailures: Set<String> = []
        /// Renditions read since the LRU order was last written.
        var used: Set<CacheKey> = []
        var usedSince = ContinuousClock.now
    }
    private let state: Mutex<State>
    private static let unstoredLimit = 32 << 20

    public init(renderer: Renderer, store: RenditionStore?, statistics: Statistics, renderThreads: Int) {
        self.renderer = renderer
        self.store = store
        self.statistics = statistics
        pool = WorkerPool(threads: renderThreads)
        var known: [CacheKey: Outcome] = [:]
        if let store {
            do { known = try store.allOutcomes() } catch { Log.warning("\(store.path): cannot read known sizes: \(error)") }
        }
        state = Mutex(State(outcomes: known))
    }

    /// The rendition's size or failure if already known: never renders, never touches the disk.
    public func knownOutcome(_ request: RenditionRequest) -> Outcome? {
        state.withLock { $0.outcomes[request.key] }
    }

    /// The rendition's byte count: known (memory, then the store's outcomes), else after the one
    /// render of this key. A size never needs the bytes to be cached.
    public func size(_ request: RenditionRequest, completion: @escaping @Sendable (Result<Int, RenditionUnavailable>) -> Void) {
        let key = request.key
        var outcome = state.withLock { $0.outcomes[key] }
        if outcome == nil, let store, let stored = try? store.outcome(for: key) {
            outcome = stored  // written by another process (assetfs warm) since we loaded
            state.withLock { $0.outcomes[key] = stored }
        }
        switch outcome {
        case .rendered(let size)?:
            Statistics.bump(statistics.cacheHits)
            completion(.success(size))
        case .failed(let reason)?:
            completion(.failure(RenditionUnavailable(reason: reason)))
        case nil:
            produceOnce(request, key: key) { completion($0.map(\.count)) }
        }
    }

    /// Up to `count` bytes from `offset`: read in place from the cache, else (never stored, or
    /// evicted since) from the one render of this key, which gives the same bytes again.
    public func read(_ request: RenditionRequest, offset: Int, count: Int, completion: @escaping Completion) {
        let key = request.key
        @Sendable func slice(_ bytes: [UInt8]) -> [UInt8] {
            offset < bytes.count ? Array(bytes[offset..<min(bytes.count, offset + count)]) : []
        }
        if let kept = state.withLock({ $0.unstored.first { $0.key == key }?.bytes }) { return completion(.success(slice(kept))) }
        if let store {
            do {
                if let bytes = try store.read(key, offset: offset, count: count) { return completion(.success(bytes)) }
            } catch {
                Log.warning("\(store.path): cache read failed: \(error)")
            }
        }
        produceOnce(request, key: key) { completion($0.map(slice)) }
    }

    /// Marks a rendition used (LRU), as it is opened or read from the start. Written in batches:
    /// a write per read would cost more than the read.
    public func markUsed(_ request: RenditionRequest) {
        guard store != nil else { return }
        let batch: [CacheKey]? = state.withLock { state in
            state.used.insert(request.key)
            guard state.used.count >= 512 || ContinuousClock.now - state.usedSince > .seconds(10) else { return nil }
            defer { state.used = []; state.usedSince = .now }
            return Array(state.used)
        }
        if let batch { writeUses(batch) }
    }

    /// Writes the pending LRU marks (also at unmount).
    public func flushUses() {
        writeUses(state.withLock { state in
            defer { state.used = []; state.usedSince = .now }
            return Array(state.used)
        })
    }

    private func writeUses(_ keys: [CacheKey]) {
        guard !keys.isEmpty, let store else { return }
        do { try store.markUsed(keys) } catch { Log.warning("\(store.path): cannot record use: \(error)") }
    }

    public enum WarmResult: Sendable { case alreadyCached, rendered, failed(String) }

    /// For `assetfs warm`: makes sure the bytes are in the cache, without reading them.
    public func ensureStored(_ request: RenditionRequest, completion: @escaping @Sendable (WarmResult) -> Void) {
        let key = request.key
        if case .failed(let reason)? = state.withLock({ $0.outcomes[key] }) { return completion(.failed(reason)) }
        if (try? store?.contains(key)) == true { return completion(.alreadyCached) }
        produceOnce(request, key: key) { result in
            switch result {
            case .success: completion(.rendered)
            case .failure(let error): completion(.failed(error.reason))
            }
        }
    }

    /// Joins the render of `key` in flight, or starts it: N callers, one render.
    private func produceOnce(_ request: RenditionRequest, key: CacheKey, completion: @escaping Completion) {
        let first: Bool = state.withLock { state in
            if state.inFlight[key] != nil { state.inFlight[key]!.append(completion); return false }
            state.inFlight[key] = [completion]
            return true
        }
        guard first else { return }
        Statistics.bump(statistics.cacheMisses)
        pool.submit { [self] in complete(key, with: produce(request, key: key)) }
    }

    private func cachedBytes(_ key: CacheKey) -> [UInt8]? {
        guard let store else { return nil }
        do { return try store.bytes(for: key) } catch {
            Log.warning("\(store.path): cache read failed: \(error)")
            return nil
        }
    }

    private func produce(_ request: RenditionRequest, key: CacheKey) -> Result<[UInt8], RenditionUnavailable> {
        // Another process (assetfs warm) may have stored it since we looked.
        if let bytes = cachedBytes(key) { return .success(bytes) }
        Statistics.bump(statistics.renders)
        let file: FileDescriptor
        do { file = try FileDescriptor.openReadOnly(request.source) } catch {
            return fail(key, RenditionError(.unreadable, path: request.source.description, reason: error.description))
        }
        defer { file.close() }
        do {
            let before = try? file.status()
            let rendition = try renderer.render(file, spec: request.spec, name: request.source.description)
            let after = try? file.status()
            // A source rewritten under us could give a mix of old and new: serve nothing rather
            // than that. A source that changed since the scan renders fine but is not cached under
            // the old identity; the rescan brings the new one.
            guard let before, let after, Self.identity(before) == Self.identity(after) else {
                return .failure(RenditionUnavailable(reason: "\(request.source): the photo changed while it was being rendered"))
            }
            for warning in rendition.warnings { Log.warning("\(request.source): \(warning); rendered anyway") }
            if Self.identity(after) == request.photo.identity { keep(rendition.jpeg, for: key) }
            return .success(rendition.jpeg)
        } catch {
            return fail(key, error)
        }
    }

    private static func identity(_ status: FileStatus) -> SourceIdentity {
        SourceIdentity(inode: status.inode, size: status.size, modificationNanoseconds: status.modificationNanoseconds)
    }

    /// A photo that cannot be rendered: logged once with its path, remembered (in the store too)
    /// until its source changes, so it is not decoded on every access.
    private func fail(_ key: CacheKey, _ error: RenditionError) -> Result<[UInt8], RenditionUnavailable> {
        Statistics.bump(statistics.renderFailures)
        // One line per broken photo, not per rendition of it.
        let firstForPhoto = state.withLock { state in
            state.outcomes[key] = .failed(reason: error.description)
            return state.loggedFailures.insert(error.description).inserted
        }
        if firstForPhoto { Log.error(error.description) }
        do { try store?.storeFailure(error.description, for: key) } catch { noteStoreFailure(error) }
        return .failure(RenditionUnavailable(reason: error.description))
    }

    private func keep(_ bytes: [UInt8], for key: CacheKey) {
        var stored = store != nil
        do { try store?.store(bytes, for: key) } catch { stored = false; noteStoreFailure(error) }
        state.withLock { state in
            state.outcomes[key] = .rendered(size: bytes.count)
            guard !stored else { return }
            state.unstored.append((key, bytes))
            var total = state.unstored.reduce(0) { $0 + $1.bytes.count }
            while total > Self.unstoredLimit, state.unstored.count > 1 {
                total -= state.unstored.removeFirst().bytes.count
            }
        }
    }

    private func noteStoreFailure(_ error: DatabaseError) {
        let first = state.withLock { state in
            defer { state.warnedStoreFailure = true }
            return !state.warnedStoreFailure
        }
        if first { Log.warning("cannot store renditions in the cache (\(error)); serving them from memory") }
    }

    private func complete(_ key: CacheKey, with result: Result<[UInt8], RenditionUnavailable>) {
        let waiters = state.withLock { $0.inFlight.removeValue(forKey: key) ?? [] }
        for waiter in waiters { waiter(result) }
    }
}
