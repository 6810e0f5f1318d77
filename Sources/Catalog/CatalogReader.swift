import Posix
import SQLiteDatabase

/// A catalog opened only to read it, by a command that asks it a few things and exits (`assetfs
/// locate`): one connection, no writer, never claimed for another SOURCE nor migrated. A
/// `CatalogStore` opens five connections, each parsing the whole schema, and makes the writer's
/// triggers: most of a one-file `locate`'s time (issue 32).
public final class CatalogReader {
    /// The SOURCE the catalog is of (what `CatalogStore.init` claims it for).
    public let source: FilePath
    /// Whether its schema is this build's: an older one is read through a `CatalogStore`, which
    /// brings it up to date first.
    public let isCurrent: Bool
    private let connection: ReadConnection

    /// The catalog at `path`; nil when there is none there (nothing is created) or it names no SOURCE.
    public init?(path: FilePath) {
        guard (try? FileStatus(path: path)) != nil, let db = try? Database(path: path, busyTimeout: 1000) else { return nil }
        var stored: [UInt8]?, version: Int64 = 0
        try? db.query("SELECT value FROM meta WHERE key = 'source'") { stored = $0.blob(0) }
        guard let stored else { return nil }
        db.skipCheckpointOnClose()
        try? db.query("PRAGMA user_version") { version = $0.integer(0) }
        source = FilePath(bytes: stored)
        isCurrent = version == CatalogStore.schemaVersion
        connection = ReadConnection(db, path: path)
    }

    /// Runs `body` on one snapshot of the catalog, as `CatalogStore.read` does.
    public func read<R>(_ body: (borrowing CatalogSnapshot) -> R) -> R {
        var result: R?
        _ = connection.snapshot { result = body($0) }
        return result!
    }
}
