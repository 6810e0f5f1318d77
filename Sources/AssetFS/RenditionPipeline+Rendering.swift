import Posix
import PhotoSource
import RenditionCache
import Renditions
import SQLiteDatabase

/// One render of one request, on a render thread: the source opened through the access checks,
/// rendered, checked unchanged, kept; and what a failure becomes (this request's only, or the
/// photo's, remembered until it changes).
extension RenditionPipeline {
    /// Nil: the render failed on a file changed in the last `settleTime`, judged once it settles.
    func produce(_ request: RenditionRequest) -> Result<[UInt8], RenditionFailure>? {
        // Another process (assetfs warm) may have stored it since we looked.
        if let bytes = try? cache.store?.bytes(for: request.key) { return .success(bytes) }
        Statistics.bump(statistics.renders)
        if request.photo.format.isVideo { Statistics.bump(statistics.posters) }
        let name = request.displayName
        let file: OwnedFileDescriptor
        do { file = try sourceFiles.open(request.photo) } catch {
            return unavailable(request, error)
        }
        let rendition: Rendition
        do { rendition = try renderer.render(file.descriptor, format: request.photo.format, spec: request.spec, name: name) } catch {
            guard error.isContentFailure else {
                return unavailable(request, .unavailable(.io), reason: request.told(error.cause))
            }
            if let status = try? file.status(), let wait = Self.timeToSettle(status) {
                judgeWhenSettled(request, cause: error.cause, storing: error.failsUnderAnySettings, after: wait)
                return nil
            }
            return fail(request, error.cause, storing: error.failsUnderAnySettings)
        }
        // A source rewritten under the render could give a mix of old and new: serve nothing.
        guard let after = try? file.status(), SourceIdentity(after) == request.photo.identity else {
            return unavailable(request, .changed("changed while it was being rendered"))
        }
        for warning in rendition.warnings { Log.warning("\(name): \(warning); rendered anyway") }
        if let previewReason = rendition.previewReason { logOnce(request.told(previewReason), warning: true) }
        keep(rendition.jpeg, for: request.key, previewReason: rendition.previewReason)
        return .success(rendition.jpeg)
    }

    /// A failure of this request only, logged once per photo and reason.
    func unavailable(_ request: RenditionRequest, _ failure: SourceFiles.Failure, reason: String? = nil) -> Result<[UInt8], RenditionFailure> {
        let reason = reason ?? "\(request.displayName): \(failure)"
        logOnce(reason, warning: true)
        if case .changed = failure { onSourceChanged(request.photo.relativePath) }
        return .failure(.unavailable(RequestFailure(failure), reason: reason))
    }

    /// A photo that cannot be rendered: logged once, remembered until its source changes, so it is
    /// not decoded on every access: by this mount, and when `storing` (it would fail under any
    /// settings) in the store, which every mount of this source shares. The log names the file
    /// tried; what is kept, and given to the flight's waiters, is the `cause` alone.
    func fail(_ request: RenditionRequest, _ cause: String, storing: Bool) -> Result<[UInt8], RenditionFailure> {
        let key = request.key
        Statistics.bump(statistics.renderFailures)
        logOnce(request.told(cause), warning: false)
        state.withLock { $0.failures[key] = cause }
        if cache.isEnabled, storing {
            write { [self] store throws(DatabaseError) in
                try store.storeFailure(cause, for: key)
                state.withLock { _ = $0.failures.removeValue(forKey: key) }
            }
        }
        return .failure(.broken(reason: cause))
    }

    @discardableResult
    private func logOnce(_ message: String, warning: Bool) -> Bool {
        let first = state.withLock { $0.loggedFailures.insert(message).inserted }
        if first { warning ? Log.warning(message) : Log.error(message) }
        return first
    }
}
