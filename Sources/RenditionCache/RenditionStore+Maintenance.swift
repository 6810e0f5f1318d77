import SQLiteDatabase

/// What `assetfs cache stats|prune|check|clear` and the stale-entry sweep do to a store.
extension RenditionStore {
    public func statistics() throws(DatabaseError) -> Statistics {
        var stats = Statistics(bytes: 0, entries: 0, oldestUse: nil, outcomes: 0)
        try reader.withLock { db throws(DatabaseError) in
            try db.query("SELECT bytes FROM usage") { stats.bytes = $0.integer(0) }
            try db.query("SELECT count(*), min(last_used) FROM entries") { row in
                stats.entries = Int(row.integer(0))
                stats.oldestUse = row.isNull(1) ? nil : row.integer(1)
            }
            try db.query("SELECT count(*) FROM outcomes") { stats.outcomes = Int($0.integer(0)) }
        }
        return stats
    }

    /// Evicts down to `capacity` (it happens on every store anyway; this is for a lowered cap).
    public func prune() throws(DatabaseError) {
        try transaction { db throws(DatabaseError) in try Self.evict(db, to: capacity) }
    }

    /// Forgets every rendition (bytes and size or failure) whose key `isStale` says is of a photo
    /// or renderer that is gone; returns how many. Keys are read a page at a time, so this runs in
    /// bounded memory however many there are.
    public func forget(where isStale: (CacheKey) -> Bool) throws(DatabaseError) -> Int {
        var after: [UInt8] = [], forgotten = 0
        while true {
            var page: [CacheKey] = []
            try reader.withLock { db throws(DatabaseError) in
                try db.query("SELECT key FROM outcomes WHERE key > ? ORDER BY key LIMIT 4096", [.blob(after)]) { page.append(CacheKey($0.blob(0))) }
            }
            guard let last = page.last else { return forgotten }
            after = last.bytes
            let stale = page.filter(isStale)
            guard !stale.isEmpty else { continue }
            try remove(stale)
            forgotten += stale.count
        }
    }

    /// Stores each `old` key's rendition (bytes, size or failure) under its `new` key too, which
    /// names the same bytes rendered (copies' shared key); one `new` already has is kept.
    /// `remove` then drops the old keys, once nobody asks for them (the catalog names the new).
    public func copy(_ keys: [(old: CacheKey, new: CacheKey)]) throws(DatabaseError) {
        guard !keys.isEmpty else { return }
        try transaction { db throws(DatabaseError) in
            for (old, new) in keys {
                try db.query("INSERT OR IGNORE INTO outcomes(key, size, failure) SELECT ?, size, failure FROM outcomes WHERE key = ?",
                             [.blob(new.bytes), .blob(old.bytes)])
                try db.query("INSERT OR IGNORE INTO entries(key, size, last_used) SELECT ?, size, last_used FROM entries WHERE key = ?",
                             [.blob(new.bytes), .blob(old.bytes)])
                if db.changes == 1 {
                    try db.query("INSERT INTO blob_data(id, data) SELECT last_insert_rowid(), data FROM blob_data WHERE id = (SELECT id FROM entries WHERE key = ?)",
                                 [.blob(old.bytes)])
                }
            }
            try Self.evict(db, to: capacity)
        }
    }

    /// Forgets the renditions (bytes, size or failure) of `keys`.
    public func remove(_ keys: [CacheKey]) throws(DatabaseError) {
        guard !keys.isEmpty else { return }
        try transaction { db throws(DatabaseError) in
            for key in keys {
                try db.query("DELETE FROM outcomes WHERE key = ?", [.blob(key.bytes)])
                try db.query("DELETE FROM entries WHERE key = ?", [.blob(key.bytes)])
            }
        }
    }

    /// SQLite's full `integrity_check`: "ok", or what is wrong (reads the whole file).
    public func integrityCheck() throws(DatabaseError) -> [String] {
        var lines: [String] = []
        do {
            try reader.withLock { db throws(DatabaseError) in try db.query("PRAGMA integrity_check") { lines.append($0.text(0)) } }
        } catch where error.isCorruption {
            return lines + [error.message]  // so damaged it could not be checked through
        }
        return lines
    }

    /// Writes the WAL back into the database file and empties it: a cleanly stopped cache is one file.
    public func checkpoint() {
        writer.withLock { db in try? db.execute("PRAGMA wal_checkpoint(TRUNCATE)") }
    }

    /// Drops everything, outcomes included.
    public func clear() throws(DatabaseError) {
        try transaction { db throws(DatabaseError) in
            try db.execute("DELETE FROM entries; DELETE FROM outcomes;")
        }
        try writer.withLock { db throws(DatabaseError) in try db.execute("VACUUM") }
    }
}
