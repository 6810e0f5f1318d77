/// What a write changed that a reader may have seen, in the catalog's own terms (rows and the
/// names it gave them). The mount model turns them into what the kernel must forget; the catalog
/// knows nothing of the names or numbers the mount shows.
public enum CatalogChange: Hashable, Sendable {
    /// An album came or went: the listings of albums, where it is called `name`.
    case albumListed(name: [UInt8])
    /// Folder `id`'s own attributes (owner, permissions).
    case folderAttributes(Int64)
    /// The photos of album `id` came, went or changed (its listing, its link count, its poster).
    case albumPhotos(Int64)
    /// The photo called `name` in album `album` came, went, or is another version.
    case assetName(album: Int64, name: [UInt8])
    /// The attributes and files of photo `id`'s version `version` (it changed, went, or has
    /// another owner).
    case photo(Int64, version: Int64)
    /// Photo `id` is another version: its files are new (its original's name, with its format's
    /// extension, may be another: `originalNames` has the old and the new).
    case photoFiles(Int64, originalNames: [[UInt8]])
    /// What photo `id`'s asset folders hold beside its renditions changed: a motion came, went or
    /// is another (its properties were read or dropped, its Live Photo paired or unpaired), while
    /// the photo stayed at version `version`; or its edit came, went or is another, under the
    /// `edited.*` names `editedNames` (the names it had and has: the kernel is told of each).
    case assetFiles(Int64, version: Int64, editedNames: [[UInt8]])
    /// The entry `name` of a view's folder `parent` (0: the view's top folder) came, went or
    /// changed (and with it the folder's listing and link count).
    case viewEntry(view: CatalogView, parent: Int64, name: [UInt8])
}
