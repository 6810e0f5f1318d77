import Foundation
import PhotoSource
import Posix
import SQLiteDatabase

/// Catalog changes that could not be written (a full disk, a read-only cache folder). SOURCE
/// still holds them, so what is kept is which of its folders to read and apply again; they are
/// tried again with backoff until written, and the kernel is then told, as for any change.
/// Told once in the log per spell of failures (and once when it ends), and in the statistics.
final class CatalogBacklog: Sendable {
    private struct State {
        var folders: Set<FilePath> = []
        /// A whole scan had failures: it is marked complete once they are written.
        var completesScan = false
        var lastError: String?
        /// Since when writes fail (nil while they succeed).
        var failingSince: Double?
        var retries = 0
        var retryScheduled = false
    }

    private let state = Locked(State())
    /// For the log (the catalog is opened on first use).
    private let catalogPath: @Sendable () -> FilePath

    init(catalogPath: @escaping @Sendable () -> FilePath) { self.catalogPath = catalogPath }

    /// Changes waiting to be written: folders, and the mark that a whole scan completed.
    var pendingCount: Int { state.withLock { $0.folders.count + ($0.completesScan ? 1 : 0) } }

    /// Why the last write failed ("" once writes succeed again).
    var lastError: String { state.withLock { $0.failingSince == nil ? "" : $0.lastError ?? "" } }

    /// The folders to read again now.
    var folders: Set<FilePath> { state.withLock { $0.folders } }

    var completesScan: Bool { state.withLock { $0.completesScan } }

    /// After a synchronize: the folders it `attempted` (nil: all of them, a whole scan) are
    /// settled, those in `failed` kept; `scanIncomplete`: a whole scan is still to be marked
    /// complete. Returns the delay before trying again, when a try is to be scheduled.
    func settle(attempted: Set<FilePath>?, failed: [FilePath: DatabaseError], scanIncomplete: Bool) -> Double? {
        state.withLock { state in
            if let attempted { state.folders.subtract(attempted) } else { state.folders = [] }
            state.folders.formUnion(failed.keys)
            state.completesScan = scanIncomplete
            if let error = failed.values.first { note(error, in: &state) }
            guard state.folders.isEmpty && !state.completesScan else {
                state.retries += failed.isEmpty ? 0 : 1
                guard !state.retryScheduled else { return nil }
                state.retryScheduled = true
                return min(Self.longestWait, 0.5 * Double(1 << min(state.retries, 8)))
            }
            if let since = state.failingSince, failed.isEmpty {
                Log.info("\(catalogPath()): the catalog is written again after \(Int(Self.now() - since)) s; what changed meanwhile is shown")
                state.failingSince = nil
                state.retries = 0
            }
            return nil
        }
    }

    /// A write outside a synchronize failed (photo properties, which stay queued to be read).
    func note(_ error: DatabaseError) { state.withLock { note(error, in: &$0) } }

    /// The scheduled retry is starting.
    func retryStarts() { state.withLock { $0.retryScheduled = false } }

    private func note(_ error: DatabaseError, in state: inout State) {
        state.lastError = error.description
        guard state.failingSince == nil else { return }
        state.failingSince = Self.now()
        Log.warning("\(catalogPath()): cannot write the catalog (\(error)); what changed is kept and written as soon as it can be "
                    + "(tried again every few seconds; catalog_pending in the statistics)")
    }

    /// The longest wait between tries: once writing works again, changes show within this.
    static let longestWait = 4.0

    private static func now() -> Double { Date().timeIntervalSince1970 }
}

extension AssetFileSystem {
    /// After a synchronize: a whole scan is marked complete only once all of it is written; what
    /// failed is kept and, after a wait, read and applied again (with whatever changed meanwhile)
    /// through the watcher, which runs every synchronize.
    func settleBacklog(_ work: SourceWatcher.Work, _ failures: [FilePath: DatabaseError], completing: Bool) {
        var scanIncomplete = work == .everything ? false : backlog.completesScan
        if completing {
            do throws(DatabaseError) {
                if failures.isEmpty, !catalog.read({ $0.isComplete }) { try catalog.markComplete() }
                scanIncomplete = !failures.isEmpty
            } catch {
                backlog.note(error)
                scanIncomplete = true
            }
        }
        let attempted = work == .everything ? nil : work.folders
        guard let delay = backlog.settle(attempted: attempted, failed: failures, scanIncomplete: scanIncomplete) else { return }
        DispatchQueue.global().asyncAfter(deadline: .now() + delay) { [weak self] in
            guard let self else { return }
            backlog.retryStarts()
            checkFolder(backlog.folders.first ?? FilePath(bytes: []))
        }
    }
}

extension SourceWatcher.Work {
    /// The folders named (none for everything).
    var folders: Set<FilePath> {
        if case .folders(let named) = self { return named }
        return []
    }
}
