import Testing
@testable import Catalog

/// The rows a read connection keeps between requests (`RecentRows`, `KeptRows`), and what a walk
/// of a big view folder costs once they are gone.
@Suite struct RecentRowsTests {
    /// A walk enters a folder's entries after listing it whole: the page it read last must still
    /// be there, however many rows came before it.
    @Test func theLatestRowsKeptAreAlwaysThere() {
        var rows = KeptRows<Int64, Int64>()
        for key in Int64(0)..<10_000 { rows.keep(key * 2, under: key) }
        let latest = Int64(10_000 - KeptRows<Int64, Int64>.limit)..<10_000
        #expect(latest.allSatisfy { rows[$0] == $0 * 2 })
        #expect(rows[0] == nil, "bounded: the oldest went")
        rows.removeAll()
        #expect(rows[9_999] == nil)
    }

    /// An event of 300 photos entered member by member in listing order, with no row kept (a
    /// commit came since its listing): a statement for each `membersReadAhead` members, not one
    /// for each, and every member as the listing shows it.
    @Test func membersEnteredInListingOrderAreReadAFewDozenAtATime() throws {
        let catalog = try EventsCatalog()
        let day: Int64 = 1_700_000_000
        for photo in Int64(1)...300 { try catalog.place(photo, day + photo * 60) }
        let listed = catalog.store.read { snapshot in
            let year = snapshot.viewEntries(of: .top(.events), after: 0, limit: 10)
            guard case .folder(let yearRow)? = year.first else { return [CatalogStore.ViewEntry]() }
            guard case .folder(let event)? = snapshot.viewEntries(of: .folder(yearRow.id), after: 0, limit: 10).first else { return [] }
            return snapshot.viewEntries(of: .folder(event.id), after: 0, limit: 1000)
        }
        let members = listed.compactMap { entry -> CatalogStore.ViewMemberRow? in
            if case .member(let row) = entry { return row }
            return nil
        }
        #expect(members.count == 300)
        try catalog.store.markComplete()  // a commit: the rows kept with the listing are read again
        let before = catalog.store.readQueryCount
        let entered = members.map { member in catalog.store.read { $0.viewMember(member.id) } }
        let statements = catalog.store.readQueryCount - before
        #expect(entered == members.map { Optional($0) })
        let pages = (300 + CatalogSnapshot.membersReadAhead - 1) / CatalogSnapshot.membersReadAhead
        #expect(statements <= pages + 1, "\(statements) statements for 300 members")
    }
}
