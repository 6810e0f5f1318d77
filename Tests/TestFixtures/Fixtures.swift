/// Where the Swift tests find the test photos: `Tests/Fixtures/` in this repository (copies of the
/// upstream test-data set, see `Tests/Fixtures/PROVENANCE.md`). The one place the Swift tests name that
/// folder; there is no fallback to a folder outside the repository.
public enum Fixtures {
    /// The package root, from this file's path: Tests/TestFixtures/Fixtures.swift → ../..
    public static let packageRoot: String = {
        var components = String(#filePath).split(separator: "/", omittingEmptySubsequences: false)
        components.removeLast(3)
        return components.joined(separator: "/")
    }()

    /// `Tests/Fixtures`, absolute.
    public static let root: String = packageRoot + "/Tests/Fixtures"

    /// A fixture file's absolute path, from its path relative to `Tests/Fixtures` (a key of expectations.csv).
    public static func path(_ relative: String) -> String { root + "/" + relative }
}
