import SQLiteDatabase

/// A result row read by column name. The columns of a query are declared once, as an enum whose
/// cases are in the order the query selects them (`selection`), so the list a query selects and
/// the index each value is read from cannot disagree: a column added, removed or moved in the
/// declaration moves in both, and a decoder naming a column that is not there does not compile.
protocol ColumnList: RawRepresentable<Int32>, CaseIterable where AllCases == [Self] {
    /// Its SQL, as selected.
    var expression: String { get }
}

extension ColumnList {
    static var selection: String { allCases.map(\.expression).joined(separator: ", ") }
}

/// A `Database.Row` whose columns are those of `Column`.
struct NamedRow<Column: ColumnList> {
    let row: Database.Row
    /// Where `Column`'s columns begin: a query may select others before them.
    let offset: Int32

    /// A row of a query that selected `Column.selection` after `offset` columns of its own, and
    /// nothing after (checked in debug builds).
    init(_ row: Database.Row, _: Column.Type = Column.self, offset: Int32 = 0) {
        assert(row.columnCount == offset + Int32(Column.allCases.count), "a \(Column.self) row of \(row.columnCount) columns")
        (self.row, self.offset) = (row, offset)
    }

    func integer(_ column: Column) -> Int64 { row.integer(offset + column.rawValue) }
    func double(_ column: Column) -> Double { row.double(offset + column.rawValue) }
    func text(_ column: Column) -> String { row.text(offset + column.rawValue) }
    func blob(_ column: Column) -> [UInt8] { row.blob(offset + column.rawValue) }
    func isNull(_ column: Column) -> Bool { row.isNull(offset + column.rawValue) }
    func optionalInteger(_ column: Column) -> Int64? { isNull(column) ? nil : integer(column) }
    func optionalText(_ column: Column) -> String? { isNull(column) ? nil : text(column) }
    func optionalBlob(_ column: Column) -> [UInt8]? { isNull(column) ? nil : blob(column) }
}
