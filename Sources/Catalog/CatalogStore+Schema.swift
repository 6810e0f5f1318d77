import PhotoSource
import Posix
import SQLiteDatabase

/// The catalog's tables, its connection settings, and the steps from older versions of it.
extension CatalogStore {
    // A scan applies each folder under a savepoint inside a batch: its sub-journal stays in
    // memory (on disk it was a million 4 KiB writes to /var/tmp per 100,000 photos), and a
    // batch's pages stay in the cache instead of spilling to the WAL again and again.
    // Recursive triggers: a view folder left empty is deleted by a trigger that its parent's
    // emptying fires again (`CatalogStore+Views.swift`).
    static let pragmas = "PRAGMA synchronous = NORMAL; PRAGMA temp_store = MEMORY; PRAGMA cache_size = -32768; PRAGMA recursive_triggers = ON;"

    static func open(_ path: FilePath) throws(DatabaseError) -> Database {
        let db = try Database(path: path)
        try db.useWriteAheadLog()
        try db.execute(pragmas)
        var version: Int64 = 0
        try db.query("PRAGMA user_version") { version = $0.integer(0) }
        guard version != Self.schemaVersion else { return db }
        if version == 9 || version == 10 {
            // Version 10 keeps each photo's content id (`ids/`): the background makes them, as
            // for new photos. Version 11 pairs edits with their originals: photos named as an
            // edit are read again to be paired; nothing else is.
            try db.execute("""
                BEGIN IMMEDIATE;
                \(version == 9 ? "ALTER TABLE properties ADD COLUMN content_id BLOB; \(Self.contentIDIndex)" : "")
                \(Self.editPairsSchema)
                INSERT OR IGNORE INTO undated SELECT id FROM photos WHERE CAST(file_name AS TEXT) GLOB '*[A-Z]_E[0-9]*' OR CAST(file_name AS TEXT) GLOB '*-edited.*';
                PRAGMA user_version = \(Self.schemaVersion);
                COMMIT;
                """)
            return db
        }
        if (4...8).contains(version) {
            // Version 5 queues new photos for dating in its inserts, not by a trigger; version 6
            // keeps when each sidecar last changed; version 8 keeps what a retired version's
            // properties said of its motion (the table is remade: its rows serve readers of a
            // running mount only); version 9 keeps the views (issue 31), whose members come from
            // properties read with what the views need: the properties are read again (the tree,
            // its ids and so its inode numbers stay); version 10 each photo's content id.
            // Steps that need no rescan: the next check of a folder stores its sidecars' times
            // (and dates its photos from them), and sniffs again the files it skipped (videos).
            var hasStamp = false
            try db.query("SELECT 1 FROM pragma_table_info('skipped') WHERE name = 'stamp'") { _ in hasStamp = true }
            if !hasStamp { try db.execute("ALTER TABLE skipped ADD COLUMN stamp INTEGER NOT NULL DEFAULT 0") }
            var hasMovie = false
            try db.query("SELECT 1 FROM pragma_table_info('retired') WHERE name = 'movie'") { _ in hasMovie = true }
            if !hasMovie { try db.execute("DROP TABLE retired;" + Self.retiredSchema) }
            try db.execute("""
                BEGIN IMMEDIATE;
                DROP TRIGGER IF EXISTS photo_added; DROP TRIGGER IF EXISTS photo_changed; DROP TRIGGER IF EXISTS photo_removed;
                DROP TABLE IF EXISTS properties; DROP TABLE IF EXISTS dated_suffixes; DROP TABLE IF EXISTS undated; DROP TABLE IF EXISTS live_pairs; DROP TABLE IF EXISTS edit_pairs;
                \(Self.dropViews)
                \(Self.propertiesSchema)
                \(Self.viewsSchema)
                \(Self.eventsSchema)
                \(Self.editPairsSchema)
                INSERT INTO undated SELECT id FROM photos;
                PRAGMA user_version = \(Self.schemaVersion);
                COMMIT;
                """)
            return db
        }
        // The catalog is derived from SOURCE: an older layout is dropped and scanned again.
        try db.execute(Self.freshSchema)
        return db
    }

    /// The views' tables, whatever a catalog had of them.
    static let dropViews = """
        DROP TABLE IF EXISTS view_folders; DROP TABLE IF EXISTS view_members; DROP TABLE IF EXISTS view_suffixes;
        DROP TABLE IF EXISTS event_photos; DROP TABLE IF EXISTS events;
        """

    /// Earlier versions of changed photos: a reader that opened one reads it on, or fails. A
    /// version's row holds what `PhotoColumn.retired` selects of it.
    static let retiredSchema = """
        CREATE TABLE retired(
            photo INTEGER NOT NULL, version INTEGER NOT NULL, relpath BLOB NOT NULL,
            inode INTEGER NOT NULL, size INTEGER NOT NULL, mtime INTEGER NOT NULL, ctime INTEGER NOT NULL,
            uid INTEGER NOT NULL, gid INTEGER NOT NULL, permissions INTEGER NOT NULL, format TEXT NOT NULL,
            properties_read INTEGER NOT NULL, motion_offset INTEGER, motion_length INTEGER, movie INTEGER,
            PRIMARY KEY(photo, version)) WITHOUT ROWID;
        """

    /// The whole schema of this version, made from nothing in one transaction.
    static let freshSchema = """
        BEGIN IMMEDIATE;
        DROP TABLE IF EXISTS folders; DROP TABLE IF EXISTS photos; DROP TABLE IF EXISTS retired; DROP TABLE IF EXISTS meta; DROP TABLE IF EXISTS skipped;
        DROP TABLE IF EXISTS properties; DROP TABLE IF EXISTS undated; DROP TABLE IF EXISTS dated_suffixes; DROP TABLE IF EXISTS live_pairs; DROP TABLE IF EXISTS edit_pairs;
        \(CatalogStore.dropViews)
        CREATE TABLE folders(
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            parent INTEGER,
            relpath BLOB NOT NULL UNIQUE,
            uid INTEGER NOT NULL, gid INTEGER NOT NULL, permissions INTEGER NOT NULL, mtime INTEGER NOT NULL,
            album_name BLOB UNIQUE,
            photo_count INTEGER NOT NULL DEFAULT 0,
            skipped INTEGER NOT NULL DEFAULT 0);
        CREATE INDEX folders_by_parent ON folders(parent);
        CREATE TABLE photos(
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            folder INTEGER NOT NULL,
            file_name BLOB NOT NULL,
            asset_name BLOB NOT NULL,
            inode INTEGER NOT NULL, size INTEGER NOT NULL, mtime INTEGER NOT NULL, ctime INTEGER NOT NULL,
            uid INTEGER NOT NULL, gid INTEGER NOT NULL, permissions INTEGER NOT NULL,
            version INTEGER NOT NULL DEFAULT 0,
            format TEXT NOT NULL DEFAULT 'jpeg',
            UNIQUE(folder, file_name), UNIQUE(folder, asset_name));
        -- Files not shown, and why; a sidecar's change time (else 0).
        CREATE TABLE skipped(folder INTEGER NOT NULL, file_name BLOB NOT NULL, reason TEXT NOT NULL,
            stamp INTEGER NOT NULL DEFAULT 0, PRIMARY KEY(folder, file_name)) WITHOUT ROWID;
        \(CatalogStore.retiredSchema)
        CREATE TABLE meta(key TEXT PRIMARY KEY, value) WITHOUT ROWID;
        \(CatalogStore.propertiesSchema)
        \(CatalogStore.viewsSchema)
        \(CatalogStore.eventsSchema)
        \(CatalogStore.editPairsSchema)
        PRAGMA user_version = \(CatalogStore.schemaVersion);
        COMMIT;
        """
}
