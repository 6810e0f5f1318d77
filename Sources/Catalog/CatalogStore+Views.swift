import SQLiteDatabase

/// The views' stored trees (issue 31): each view is a tree of view folders (`view_folders`,
/// `parent` 0 for a folder directly in the view's top folder) holding member asset folders
/// (`view_members`, a photo under a name unique in its folder). Triggers keep each folder's
/// counts of child folders and members (its link count is read from its row; a top folder's is
/// not counted, as `groups/`'s), and delete a folder left with neither, up the chain. Row ids
/// are never reused (AUTOINCREMENT): inode numbers made of them stay stable.
///
/// Writers (`record`, the events' clustering) change the trees only through the helpers below,
/// inside a write transaction. What the kernel must forget is noted by triggers on the writer's
/// connection (a folder that went with its last member included) and turned into
/// `CatalogChange.viewEntry`s once per write by `viewChanges`, which `assetFolderChanges`
/// calls: every write ends with it.
extension CatalogStore {
    static let viewsSchema = """
        CREATE TABLE view_folders(
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            view INTEGER NOT NULL, parent INTEGER NOT NULL, name BLOB NOT NULL,
            folders INTEGER NOT NULL DEFAULT 0, members INTEGER NOT NULL DEFAULT 0,
            UNIQUE(view, parent, name));
        -- A folder's subfolders are listed in id order, by pages.
        CREATE INDEX view_folders_by_parent ON view_folders(view, parent, id);
        -- `folder`: a view_folders id, or for a member of a view's top folder -1 - the view.
        CREATE TABLE view_members(
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            folder INTEGER NOT NULL, photo INTEGER NOT NULL, name BLOB NOT NULL,
            UNIQUE(folder, name), UNIQUE(folder, photo));
        CREATE INDEX view_members_by_photo ON view_members(photo);
        -- Where the search for a free " (N)" starts, per folder and name: a folder of thousands of
        -- IMG_0001s (many cameras, many imports) must not try every N taken before.
        CREATE TABLE view_suffixes(folder INTEGER NOT NULL, name BLOB NOT NULL, next INTEGER NOT NULL,
            PRIMARY KEY(folder, name)) WITHOUT ROWID;
        CREATE TRIGGER view_folder_added AFTER INSERT ON view_folders BEGIN
            UPDATE view_folders SET folders = folders + 1 WHERE id = new.parent; END;
        CREATE TRIGGER view_folder_removed AFTER DELETE ON view_folders BEGIN
            DELETE FROM view_members WHERE folder = old.id; DELETE FROM view_folders WHERE view = old.view AND parent = old.id;
            DELETE FROM view_suffixes WHERE folder = old.id;
            UPDATE view_folders SET folders = folders - 1 WHERE id = old.parent; END;
        CREATE TRIGGER view_member_added AFTER INSERT ON view_members BEGIN
            UPDATE view_folders SET members = members + 1 WHERE id = new.folder; END;
        CREATE TRIGGER view_member_removed AFTER DELETE ON view_members BEGIN
            UPDATE view_folders SET members = members - 1 WHERE id = old.folder; END;
        CREATE TRIGGER view_folder_emptied AFTER UPDATE OF folders, members ON view_folders
            WHEN new.folders = 0 AND new.members = 0 BEGIN DELETE FROM view_folders WHERE id = new.id; END;
        -- A Live Photo's movie, once paired, is shown by its still only.
        CREATE TRIGGER live_movie_hidden AFTER INSERT ON live_pairs BEGIN DELETE FROM view_members WHERE photo = new.movie; END;
        """

    /// Temporary (the writer's connection only, with `assetFolderTriggers`): the entries of view
    /// folders that came, went or were renamed in this write. A member's is noted by its folder
    /// (`view` NULL), whose view is read when the notes are turned into changes.
    static let viewEntryTriggers = """
        CREATE TEMP TABLE IF NOT EXISTS view_entries_changed(view INTEGER, parent INTEGER NOT NULL, name BLOB NOT NULL,
            UNIQUE(view, parent, name));
        CREATE TEMP TRIGGER IF NOT EXISTS view_folder_came AFTER INSERT ON main.view_folders BEGIN
            INSERT OR IGNORE INTO view_entries_changed VALUES (new.view, new.parent, new.name); END;
        CREATE TEMP TRIGGER IF NOT EXISTS view_folder_went AFTER DELETE ON main.view_folders BEGIN
            INSERT OR IGNORE INTO view_entries_changed VALUES (old.view, old.parent, old.name); END;
        CREATE TEMP TRIGGER IF NOT EXISTS view_folder_renamed AFTER UPDATE OF name ON main.view_folders BEGIN
            INSERT OR IGNORE INTO view_entries_changed VALUES (old.view, old.parent, old.name), (new.view, new.parent, new.name); END;
        CREATE TEMP TRIGGER IF NOT EXISTS view_member_came AFTER INSERT ON main.view_members BEGIN
            INSERT OR IGNORE INTO view_entries_changed VALUES (NULL, new.folder, new.name); END;
        CREATE TEMP TRIGGER IF NOT EXISTS view_member_went AFTER DELETE ON main.view_members BEGIN
            INSERT OR IGNORE INTO view_entries_changed VALUES (NULL, old.folder, old.name); END;
        CREATE TEMP TRIGGER IF NOT EXISTS view_member_renamed AFTER UPDATE OF name ON main.view_members BEGIN
            INSERT OR IGNORE INTO view_entries_changed VALUES (NULL, old.folder, old.name), (NULL, new.folder, new.name); END;
        """

    /// A folder of a view that holds members: the view's top folder (`id` 0) or a view_folders row.
    public struct ViewFolder: Hashable, Sendable {
        public var view: CatalogView
        public var id: Int64

        public init(_ view: CatalogView, id: Int64) { (self.view, self.id) = (view, id) }

        /// Its `view_members.folder`: the row's id, or for the top folder (which has no row)
        /// -1 - the view.
        var memberKey: Int64 { id == 0 ? -1 - Int64(view.rawValue) : id }

        /// The folder id a `view_members.folder` (or a folder's `parent`) stands for: 0 for a top.
        static func parent(ofMemberKey key: Int64) -> Int64 { max(0, key) }
    }

    // MARK: Writing, inside a write transaction

    /// The id of the folder called `name` (as shown: escaped and fitted) in folder `parent` (0: the
    /// view's top) of `view`; made if missing and `create`, else nil. A folder made and given no
    /// member is the caller's to remove.
    static func folderID(view: CatalogView, parent: Int64, name: [UInt8], create: Bool, _ db: Database) throws(DatabaseError) -> Int64? {
        try folderRow(view: view, parent: parent, name: name, create: create, db)?.id
    }

    /// `folderID`, and whether the folder holds subfolders (one made now holds none).
    static func folderRow(view: CatalogView, parent: Int64, name: [UInt8], create: Bool,
                          _ db: Database) throws(DatabaseError) -> (id: Int64, holdsFolders: Bool)? {
        let key: [Database.Value] = [.integer(Int64(view.rawValue)), .integer(parent), .blob(name)]
        var found: (id: Int64, holdsFolders: Bool)?
        try db.query("SELECT id, folders FROM view_folders WHERE view = ? AND parent = ? AND name = ?", key) { found = ($0.integer(0), $0.integer(1) > 0) }
        guard found == nil, create else { return found }
        try db.query("INSERT INTO view_folders(view, parent, name) VALUES (?, ?, ?)", key)
        let made = db.lastInsertedRow
        try giveWay(to: name, in: ViewFolder(view, id: parent), db)
        return (made, false)
    }

    /// A member called `name` in `folder` takes a free ` (N)` name: a subfolder just made there
    /// has that name (a tag `x` under which a photo called `x` was already shown), and a lookup
    /// finds the folder, so the member would be hidden.
    private static func giveWay(to name: [UInt8], in folder: ViewFolder, _ db: Database) throws(DatabaseError) {
        var member: (id: Int64, photo: Int64, assetName: [UInt8])?
        try db.query("SELECT m.id, m.photo, p.asset_name FROM view_members m JOIN photos p ON p.id = m.photo WHERE m.folder = ? AND m.name = ?",
                     [.integer(folder.memberKey), .blob(name)]) { member = ($0.integer(0), $0.integer(1), $0.blob(2)) }
        guard let member else { return }
        let free = try uniqueMemberName(member.assetName, in: folder, photo: member.photo, db)
        try db.query("UPDATE view_members SET name = ? WHERE id = ?", [.blob(free), .integer(member.id)])
    }

    /// Makes photo `photo` a member of `folder`, called by its asset name or, when another member
    /// or a subfolder has that, with ` (N)` (fitted in 255 bytes); a member already keeps its name.
    /// Returns its name there.
    @discardableResult
    static func addMember(photo: Int64, folder: ViewFolder, assetName: [UInt8], _ db: Database) throws(DatabaseError) -> [UInt8] {
        var existing: [UInt8]?
        try db.query("SELECT name FROM view_members WHERE folder = ? AND photo = ?", [.integer(folder.memberKey), .integer(photo)]) { existing = $0.blob(0) }
        if let existing { return existing }
        return try insertMember(photo: photo, folder: folder, assetName: assetName, db)
    }

    /// `addMember` for a photo known not to be a member of `folder`. In a folder known to hold no
    /// subfolders (`holdsFolders` false) the plain name is tried by inserting it: a first scan
    /// mostly finds it free, and the search for a free name is one statement fewer then.
    @discardableResult
    static func insertMember(photo: Int64, folder: ViewFolder, assetName: [UInt8], holdsFolders: Bool = true,
                             _ db: Database) throws(DatabaseError) -> [UInt8] {
        if !holdsFolders {
            let plain = Naming.fitted(assetName)
            try db.query("INSERT OR IGNORE INTO view_members(folder, photo, name) VALUES (?, ?, ?)", [.integer(folder.memberKey), .integer(photo), .blob(plain)])
            if db.changes == 1 { return plain }
        }
        let name = try uniqueMemberName(assetName, in: folder, photo: photo, db)
        try db.query("INSERT INTO view_members(folder, photo, name) VALUES (?, ?, ?)", [.integer(folder.memberKey), .integer(photo), .blob(name)])
        return name
    }

    /// Takes photo `photo` out of `folder` (a folder left empty goes, and so up the chain).
    static func removeMember(photo: Int64, folder: ViewFolder, _ db: Database) throws(DatabaseError) {
        try db.query("DELETE FROM view_members WHERE folder = ? AND photo = ?", [.integer(folder.memberKey), .integer(photo)])
    }

    /// Calls folder `id` `name` (fails if its parent holds a folder of that name already).
    static func renameFolder(_ id: Int64, to name: [UInt8], _ db: Database) throws(DatabaseError) {
        try db.query("UPDATE view_folders SET name = ? WHERE id = ? AND name != ?", [.blob(name), .integer(id), .blob(name)])
    }

    /// Gives each photo's members, in every view, names made of its new asset name. Every one is
    /// first moved aside to a name no asset can have (with a `/`): names may pass from one to another.
    static func renameMembers(photos: [(id: Int64, assetName: [UInt8])], _ db: Database) throws(DatabaseError) {
        var members: [(id: Int64, folder: Int64, photo: Int64, assetName: [UInt8])] = []
        for photo in photos {
            try db.query("SELECT id, folder FROM view_members WHERE photo = ?", [.integer(photo.id)]) {
                members.append(($0.integer(0), $0.integer(1), photo.id, photo.assetName))
            }
        }
        for member in members {
            try db.query("UPDATE view_members SET name = CAST('/' || id AS BLOB) WHERE id = ?", [.integer(member.id)])
        }
        for member in members {
            let folder = try viewFolder(memberKey: member.folder, db)
            let name = try uniqueMemberName(member.assetName, in: folder, photo: member.photo, db)
            try db.query("UPDATE view_members SET name = ? WHERE id = ?", [.blob(name), .integer(member.id)])
        }
    }

    /// What the triggers noted of view entries in this write, as changes, and the notes cleared.
    /// A member whose folder went in the same write needs none (its folder's entry is told).
    static func viewChanges(_ db: Database) throws(DatabaseError) -> [CatalogChange] {
        var changes: [CatalogChange] = []
        try db.query("""
            SELECT coalesce(n.view, f.view, -1 - n.parent), n.parent, n.name FROM view_entries_changed n
            LEFT JOIN view_folders f ON n.view IS NULL AND f.id = n.parent
            WHERE n.view IS NOT NULL OR n.parent < 0 OR f.id IS NOT NULL
            """) { row in
            guard let view = CatalogView(rawValue: Int(row.integer(0))) else { return }
            changes.append(.viewEntry(view: view, parent: ViewFolder.parent(ofMemberKey: row.integer(1)), name: row.blob(2)))
        }
        try db.query("DELETE FROM view_entries_changed")
        return changes
    }

    /// Photo `photo`'s member folders' entries, for a change to what they hold (a motion file
    /// came or went) or to their attributes (the photo's owner): the kernel forgets each with
    /// what it holds.
    static func memberChanges(ofPhoto photo: Int64, _ db: Database) throws(DatabaseError) -> [CatalogChange] {
        var changes: [CatalogChange] = []
        try db.query("""
            SELECT coalesce(f.view, -1 - m.folder), m.folder, m.name FROM view_members m LEFT JOIN view_folders f ON f.id = m.folder WHERE m.photo = ?
            """, [.integer(photo)]) { row in
            guard let view = CatalogView(rawValue: Int(row.integer(0))) else { return }
            changes.append(.viewEntry(view: view, parent: ViewFolder.parent(ofMemberKey: row.integer(1)), name: row.blob(2)))
        }
        return changes
    }

    // MARK: Names

    private static func viewFolder(memberKey key: Int64, _ db: Database) throws(DatabaseError) -> ViewFolder {
        if key < 0 { return ViewFolder(CatalogView(rawValue: Int(-1 - key)) ?? .dates, id: 0) }
        var view = CatalogView.dates
        try db.query("SELECT view FROM view_folders WHERE id = ?", [.integer(key)]) { view = CatalogView(rawValue: Int($0.integer(0))) ?? .dates }
        return ViewFolder(view, id: key)
    }

    /// `assetName` fitted, or with the first free ` (N)`: free of other photos' members and of
    /// the folder's subfolders.
    private static func uniqueMemberName(_ assetName: [UInt8], in folder: ViewFolder, photo: Int64, _ db: Database) throws(DatabaseError) -> [UInt8] {
        func isFree(_ candidate: [UInt8]) throws(DatabaseError) -> Bool {
            var taken = false
            try db.query("""
                SELECT 1 FROM view_members WHERE folder = ?1 AND name = ?2 AND photo != ?3
                UNION ALL SELECT 1 FROM view_folders WHERE view = ?4 AND parent = ?5 AND name = ?2 LIMIT 1
                """, [.integer(folder.memberKey), .blob(candidate), .integer(photo), .integer(Int64(folder.view.rawValue)), .integer(folder.id)]) { _ in taken = true }
            return !taken
        }
        let plain = Naming.fitted(assetName)
        if try isFree(plain) { return plain }
        var n: Int64 = 2
        try db.query("SELECT next FROM view_suffixes WHERE folder = ? AND name = ?", [.integer(folder.memberKey), .blob(plain)]) { n = $0.integer(0) }
        while true {
            let suffix = Array(" (\(n))".utf8)
            let candidate = Naming.fitted(assetName, limit: Naming.maxNameBytes - suffix.count) + suffix
            if try isFree(candidate) {
                try db.query("INSERT OR REPLACE INTO view_suffixes(folder, name, next) VALUES (?, ?, ?)",
                             [.integer(folder.memberKey), .blob(plain), .integer(n + 1)])
                return candidate
            }
            n += 1
        }
    }
}
