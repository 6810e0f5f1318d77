/// The views of issue 31: trees of view folders (`view_folders`) holding member asset folders
/// (`view_members`), kept in the catalog (`CatalogStore+Views.swift`). The raw values are stored:
/// a case keeps its number.
public enum CatalogView: Int, CaseIterable, Sendable {
    case dates = 0, events, places, people, tags, favorites, videos

    /// Whether `record` derives its members from one photo's properties; events are clustered
    /// over many photos (`CatalogStore+Events.swift`) and left alone by `record`.
    var isPerPhoto: Bool { self != .events }
}
