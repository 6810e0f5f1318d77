/// Where one photo belongs in the views that follow from its own properties (all but events):
/// a pure function of them, so `record` can diff what a photo's properties say now against the
/// members it has.
public struct ViewPath: Hashable, Sendable {
    public var view: CatalogView
    /// The folders from the view's top down, as shown (escaped and fitted); empty: the top itself.
    public var folders: [[UInt8]]

    public init(_ view: CatalogView, _ folders: [[UInt8]]) { (self.view, self.folders) = (view, folders) }

    /// The deepest a keyword hierarchy is followed in `tags/`: 16 names of up to 255 bytes stay
    /// within PATH_MAX (4096), which tools copying the tree out need (the readers keep more).
    static let maximumDepth = 16

    /// The paths of a photo (`isVideo`: of a video's format) with `properties`:
    /// `dates/<YYYY>/<YYYY-MM-DD>/`, `videos/<YYYY>/`, `favorites/` (rated 4 or 5, or marked a
    /// favorite), `tags/<keyword>/<sub-keyword>/…`, `people/<name>/`, `places/<country>/<region>/<city>/`.
    /// Names that are empty, or nothing once escaped, are left out.
    public static func of(_ properties: CatalogStore.Properties, isVideo: Bool) -> [ViewPath] {
        let year = yearName(properties.day / 10000)
        var paths = [ViewPath(.dates, [year, dayName(properties.day)])]
        if isVideo { paths.append(ViewPath(.videos, [year])) }
        if properties.favorite || (properties.rating ?? 0) >= 4 { paths.append(ViewPath(.favorites, [])) }
        for keyword in properties.keywords {
            let folders = keyword.compactMap(folderName).prefix(maximumDepth)
            if !folders.isEmpty { paths.append(ViewPath(.tags, Array(folders))) }
        }
        paths += properties.people.compactMap(folderName).map { ViewPath(.people, [$0]) }
        if let place = properties.place {
            let folders = [place.country, place.region, place.city].compactMap { $0.flatMap(folderName) }
            if !folders.isEmpty { paths.append(ViewPath(.places, folders)) }
        }
        var seen: Set<ViewPath> = []
        return paths.filter { seen.insert($0).inserted }
    }

    /// A name from metadata as a folder's name: `/` shown as `／` (escaped as albums' are),
    /// control characters (NUL among them) dropped, spaces trimmed, fitted in 255 bytes; nil when
    /// nothing is left or it is `.` or `..`.
    static func folderName(_ text: String) -> [UInt8]? {
        let kept = String(text.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }.map(Character.init))
        let trimmed = kept.trimmingSpaces
        guard !trimmed.isEmpty, trimmed != ".", trimmed != ".." else { return nil }
        return Naming.fitted(Naming.albumName(components: trimmed.split(separator: "/", omittingEmptySubsequences: false).map { Array($0.utf8) }))
    }

    /// `2024`.
    public static func yearName(_ year: Int) -> [UInt8] { Array(pad(year, 4).utf8) }
    /// `2024-01-15` for 20240115.
    public static func dayName(_ day: Int) -> [UInt8] { Array((pad(day / 10000, 4) + "-" + pad(day / 100 % 100, 2) + "-" + pad(day % 100, 2)).utf8) }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}

private extension String {
    var trimmingSpaces: String {
        var scalars = Substring(self)
        while scalars.first?.isWhitespace == true { scalars.removeFirst() }
        while scalars.last?.isWhitespace == true { scalars.removeLast() }
        return String(scalars)
    }
}
