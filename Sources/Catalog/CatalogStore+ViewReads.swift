import SQLiteDatabase

/// Reading the views' trees (`CatalogStore+Views.swift`): a folder's page of subfolders and
/// members is one statement, a name in a folder is one (and a folder found brings its subfolders
/// along when they are few, so the name after it costs none), and a member comes with its
/// photo's row, so nothing under it costs another. The rows are `CatalogStore`'s, the reads the
/// snapshot's.
extension CatalogStore {
    /// A view folder as stored, with its counts (its link count is read from it).
    public struct ViewFolderRow: Sendable, Equatable {
        public var id: Int64
        public var view: CatalogView
        /// 0: the view's top folder.
        public var parent: Int64
        public var name: [UInt8]
        public var folders: Int
        public var members: Int

        /// Where it is found by name.
        var nameInParent: ViewFolderName { ViewFolderName(parent: parent == 0 ? .top(view) : .folder(parent), name: name) }
    }

    /// A view folder's parent and its name there, which is unique there.
    struct ViewFolderName: Hashable {
        var parent: ViewParent
        var name: [UInt8]
    }

    /// A member asset folder: photo `photo` in `folder`, called `name` there.
    public struct ViewMemberRow: Sendable, Equatable {
        public var id: Int64
        public var folder: ViewFolder
        public var name: [UInt8]
        public var photo: PhotoRow
    }

    /// A folder of the views as the mount names it: a view's top, or a view folder by id alone
    /// (its view is read with what is asked of it, in the same statement).
    public enum ViewParent: Hashable, Sendable {
        case top(CatalogView)
        case folder(Int64)

        /// Bindings ?1 (the view, NULL for a folder), ?2 (the folder's id, 0 for a top), and the
        /// member key of `ViewFolder.memberKey`.
        var bindings: (view: Database.Value, id: Database.Value, memberKey: Database.Value) {
            switch self {
            case .top(let view): return (.integer(Int64(view.rawValue)), .integer(0), .integer(ViewFolder(view, id: 0).memberKey))
            case .folder(let id): return (.null, .integer(id), .integer(id))
            }
        }
    }

    /// An entry of a view folder: a subfolder or a member.
    public enum ViewEntry: Sendable, Equatable {
        case folder(ViewFolderRow)
        case member(ViewMemberRow)

        public var name: [UInt8] {
            switch self {
            case .folder(let row): return row.name
            case .member(let row): return row.name
            }
        }

        /// Where a listing continues after it: subfolders by id, then members by photo id.
        public var cookie: Int64 {
            switch self {
            case .folder(let row): return row.id
            case .member(let row): return ViewEntry.memberCookies + row.photo.id
            }
        }

        /// Members' cookies begin here (folder ids stay far below).
        static let memberCookies: Int64 = 1 << 48
    }

    // MARK: Rows

    /// Kind (0 folder, 1 member), id, name, view, then for a folder its parent and counts, for a
    /// member its folder key and photo id, then the photo's columns (NULL for a folder).
    static let entryColumnCount: Int32 = 7
    static let folderEntryColumns = "0, id, name, view, parent, folders, members, "
        + PhotoColumn.allCases.map { _ in "NULL" }.joined(separator: ", ")
    static func memberEntryColumns(view: String) -> String { "1, m.id, m.name, \(view), m.folder, m.photo, 0, \(photoColumns)" }
    static let memberTables = "view_members m JOIN photos p ON p.id = m.photo JOIN folders f ON f.id = p.folder LEFT JOIN properties q ON q.photo = p.id"

    static func viewEntry(_ row: Database.Row) -> ViewEntry {
        let view = CatalogView(rawValue: Int(row.integer(3))) ?? .dates
        guard row.integer(0) == 1 else {
            return .folder(ViewFolderRow(id: row.integer(1), view: view, parent: row.integer(4), name: row.blob(2),
                                         folders: Int(row.integer(5)), members: Int(row.integer(6))))
        }
        return .member(ViewMemberRow(id: row.integer(1), folder: ViewFolder(view, id: ViewFolder.parent(ofMemberKey: row.integer(4))),
                                     name: row.blob(2), photo: photo(row, offset: entryColumnCount)))
    }

    /// The view of ?1 and ?2 (`ViewParent.bindings`), in SQL.
    static let boundView = "coalesce(?1, (SELECT view FROM view_folders WHERE id = ?2))"
}

extension CatalogSnapshot {
    /// The child folders and members of `folder` after `cookie` (0: from the start; else a
    /// `ViewEntry.cookie`), subfolders first, up to `limit`: one statement.
    public func viewEntries(of folder: CatalogStore.ViewParent, after cookie: Int64, limit: Int) -> [CatalogStore.ViewEntry] {
        let inMembers = cookie >= CatalogStore.ViewEntry.memberCookies
        let bound = folder.bindings
        return read([]) { db throws(DatabaseError) in
            var result: [CatalogStore.ViewEntry] = []
            try db.query("""
                SELECT * FROM (SELECT \(CatalogStore.folderEntryColumns) FROM view_folders WHERE view = \(CatalogStore.boundView) AND parent = ?2 AND id > ?3 ORDER BY id LIMIT ?4)
                UNION ALL SELECT * FROM (SELECT \(CatalogStore.memberEntryColumns(view: CatalogStore.boundView)) FROM \(CatalogStore.memberTables)
                    WHERE m.folder = ?5 AND m.photo > ?6 ORDER BY m.photo LIMIT ?4)
                """, [bound.view, bound.id, .integer(inMembers ? Int64.max : cookie), .integer(Int64(limit)),
                      bound.memberKey, .integer(inMembers ? cookie - CatalogStore.ViewEntry.memberCookies : 0)]) { row in
                if result.count < limit { result.append(CatalogStore.viewEntry(row)) }
            }
            keep(result)
            return result
        }
    }

    /// The entry called `name` in `folder` (a subfolder before a member of that name): a folder
    /// read lately, else one statement, which brings a subfolder's own subfolders along when
    /// there are at most `subfoldersBroughtAlong`: a year's days, a country's regions, so that the
    /// next name of a LOOKUP chain is found among them.
    public func viewEntry(in folder: CatalogStore.ViewParent, named name: [UInt8]) -> CatalogStore.ViewEntry? {
        let bound = folder.bindings
        return read(nil) { db throws(DatabaseError) in
            if let kept = try reader.recent(\.viewFolderNames, CatalogStore.ViewFolderName(parent: folder, name: name)) { return .folder(kept) }
            var entries: [CatalogStore.ViewEntry] = []
            // The entry first (UNION ALL keeps the order), then its subfolders if few.
            try db.query("""
                SELECT * FROM (SELECT \(CatalogStore.folderEntryColumns) FROM view_folders WHERE view = \(CatalogStore.boundView) AND parent = ?2 AND name = ?3
                    UNION ALL SELECT \(CatalogStore.memberEntryColumns(view: CatalogStore.boundView)) FROM \(CatalogStore.memberTables) WHERE m.folder = ?4 AND m.name = ?3 LIMIT 1)
                UNION ALL SELECT \(CatalogStore.folderEntryColumns) FROM view_folders WHERE view = \(CatalogStore.boundView) AND parent =
                    (SELECT id FROM view_folders WHERE view = \(CatalogStore.boundView) AND parent = ?2 AND name = ?3 AND folders BETWEEN 1 AND ?5)
                """, [bound.view, bound.id, .blob(name), bound.memberKey, .integer(Int64(Self.subfoldersBroughtAlong))]) {
                entries.append(CatalogStore.viewEntry($0))
            }
            keep(entries)
            return entries.first
        }
    }

    /// At most how many subfolders a folder found by name brings along: the rows of a year's
    /// days or of a country's regions (GeoNames has at most about 250 per country), few enough to
    /// read with it on every uncached LOOKUP.
    static let subfoldersBroughtAlong = 512

    /// View folder `id`, if it exists.
    public func viewFolder(_ id: Int64) -> CatalogStore.ViewFolderRow? {
        read(nil) { db throws(DatabaseError) in
            if let hit = try reader.recent(\.viewFolders, id) { return hit }
            var result: CatalogStore.ViewFolderRow?
            try db.query("SELECT \(CatalogStore.folderEntryColumns) FROM view_folders WHERE id = ?", [.integer(id)]) {
                if case .folder(let row) = CatalogStore.viewEntry($0) { result = row }
            }
            if let result { reader.keep(viewFolders: [result]) }
            return result
        }
    }

    /// Member `id`, with its photo, if it exists: read lately, else read with the members that
    /// follow it in its folder's listing (`membersReadAhead`), in one statement. A walk (`find`,
    /// `rsync`, `du`) lists a folder whole before it enters each member in listing order, and a
    /// folder of thousands (an event, a day, a person) outgrows the rows kept: each member so
    /// lost cost a statement of its own (`find events/` over events of ~1,470 photos ran 1.3×
    /// `groups/`'s CPU); now one in `membersReadAhead` does.
    public func viewMember(_ id: Int64) -> CatalogStore.ViewMemberRow? {
        read(nil) { db throws(DatabaseError) in
            if let hit = try reader.recent(\.viewMembers, id) { return hit }
            var members: [CatalogStore.ViewEntry] = []
            try db.query("""
                SELECT \(CatalogStore.memberEntryColumns(view: "coalesce(vf.view, -1 - m.folder)")) FROM view_members k, \(CatalogStore.memberTables)
                LEFT JOIN view_folders vf ON vf.id = m.folder WHERE k.id = ?1 AND m.folder = k.folder AND m.photo >= k.photo ORDER BY m.photo LIMIT ?2
                """, [.integer(id), .integer(Int64(Self.membersReadAhead))]) { members.append(CatalogStore.viewEntry($0)) }
            keep(members)
            guard case .member(let row)? = members.first, row.id == id else { return nil }
            return row
        }
    }

    /// How many members a member read on its own brings along (itself included): enough that
    /// a walk's statements for them are few, few enough that one asked for alone costs little.
    static let membersReadAhead = 64

    /// The photos of the members of view folder `id` and every folder below it, after member id
    /// `after`, in member id order, up to `limit` (for a caller who may read only some photos:
    /// a folder is shown to them if one of these is theirs). Of an event named by a place, only
    /// the members taken there: its name must say nothing a photo the caller cannot read says.
    public func photos(underViewFolder id: Int64, after: Int64, limit: Int) -> [(member: Int64, photo: CatalogStore.PhotoRow)] {
        read([]) { db throws(DatabaseError) in
            var result: [(member: Int64, photo: CatalogStore.PhotoRow)] = []
            try db.query("""
                WITH RECURSIVE below(id, view) AS (SELECT id, view FROM view_folders WHERE id = ?1
                    UNION ALL SELECT f.id, f.view FROM view_folders f JOIN below b ON f.view = b.view AND f.parent = b.id)
                SELECT m.id, \(CatalogStore.photoColumns) FROM below, \(CatalogStore.memberTables)
                WHERE m.folder = below.id AND m.id > ?2
                    AND NOT EXISTS (SELECT 1 FROM events e WHERE e.folder = m.folder AND e.place IS NOT NULL
                        AND NOT EXISTS (SELECT 1 FROM event_photos t WHERE t.photo = m.photo AND t.event = e.folder AND t.city = e.place))
                ORDER BY m.id LIMIT ?3
                """, [.integer(id), .integer(after), .integer(Int64(limit))]) { result.append(($0.integer(0), CatalogStore.photo($0, offset: 1))) }
            return result
        }
    }

    /// Keeps the rows of `entries` for the requests that follow (their attributes, the files under a member).
    private func keep(_ entries: [CatalogStore.ViewEntry]) {
        var folders: [CatalogStore.ViewFolderRow] = [], members: [CatalogStore.ViewMemberRow] = []
        for entry in entries {
            switch entry {
            case .folder(let row): folders.append(row)
            case .member(let row): members.append(row)
            }
        }
        reader.keep(photos: members.map(\.photo), viewFolders: folders, viewMembers: members)
    }
}
