/// The columns of a photo row (`CatalogStore.photo`), in the order they are selected: the
/// photo, its folder's path, what its stored properties say of a motion beside it, its edit, and
/// the digest its renditions are shared by (`CatalogStore+RenditionDigests.swift`).
enum PhotoColumn: Int32, ColumnList {
    case id, folder, assetName, version, folderPath, fileName, inode, size, mtime, ctime, uid, gid, permissions, format
    case propertiesRead, motionOffset, motionLength, pairedMovie, pairedEdit, renditionDigest

    /// From `CatalogStore.photoTables`: photos `p`, their folders `f`, their properties `q`.
    var expression: String {
        switch self {
        case .id: "p.id"
        case .folder: "p.folder"
        case .assetName: "p.asset_name"
        case .version: "p.version"
        case .folderPath: "f.relpath"
        case .fileName: "p.file_name"
        case .inode: "p.inode"
        case .size: "p.size"
        case .mtime: "p.mtime"
        case .ctime: "p.ctime"
        case .uid: "p.uid"
        case .gid: "p.gid"
        case .permissions: "p.permissions"
        case .format: "p.format"
        case .propertiesRead: "q.photo IS NOT NULL"
        case .motionOffset: "q.motion_offset"
        case .motionLength: "q.motion_length"
        case .pairedMovie: "(SELECT movie FROM live_pairs WHERE still = p.id)"
        case .pairedEdit: "(SELECT edit FROM edit_pairs WHERE original = p.id)"
        case .renditionDigest: "q.rendition_digest"
        }
    }

    /// The same columns for an earlier version of a photo, from `retired r` (what that version
    /// was, its motion facts included) joined with its photo `p` (its folder and names);
    /// `folderPath` then holds the file's whole path.
    var retired: String {
        switch self {
        case .id: "r.photo"
        case .version: "r.version"
        case .folderPath: "r.relpath"
        case .inode: "r.inode"
        case .size: "r.size"
        case .mtime: "r.mtime"
        case .ctime: "r.ctime"
        case .uid: "r.uid"
        case .gid: "r.gid"
        case .permissions: "r.permissions"
        case .format: "r.format"
        case .propertiesRead: "r.properties_read"
        case .motionOffset: "r.motion_offset"
        case .motionLength: "r.motion_length"
        case .pairedMovie: "r.movie"
        // An earlier version is read on as it was: its own file, not an edit.
        case .pairedEdit: "NULL"
        // Nor does it share renditions: it is no longer the file a digest was made of.
        case .renditionDigest: "NULL"
        case .folder, .assetName, .fileName: expression
        }
    }

    static let retiredSelection = allCases.map(\.retired).joined(separator: ", ")
}
