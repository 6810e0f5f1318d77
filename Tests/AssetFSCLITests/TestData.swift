import Foundation
import Glibc
import TestFixtures

/// The sample photos vendored in Tests/Fixtures (located by `Fixtures`, the one place naming that
/// folder; read-only) and what `expectations.csv` says about them.
enum TestData {
    static let root: String = Fixtures.root

    static let packageRoot: String = Fixtures.packageRoot

    static func path(_ sample: String) -> String { root + "/" + sample }

    struct Missing: Error, CustomStringConvertible {
        var path: String
        var description: String { "cannot read the sample \(path)" }
    }

    static func contents(_ sample: String) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path(sample)) else { throw Missing(path: path(sample)) }
        return [UInt8](data)
    }

    struct Expectation: Sendable {
        var file: String
        var uprightWidth: Int?
        var uprightHeight: Int?
        var decodes: String   // yes / no / partial
    }

    /// expectations.csv by file (relative to the testdata folder).
    static let expectations: [String: Expectation] = {
        guard let text = try? String(contentsOfFile: path("expectations.csv"), encoding: .utf8) else { return [:] }
        let rows = parseCSV(text)
        guard let header = rows.first,
              let file = header.firstIndex(of: "file"), let width = header.firstIndex(of: "upright_width"),
              let height = header.firstIndex(of: "upright_height"), let decodes = header.firstIndex(of: "decodes_ok") else { return [:] }
        var result: [String: Expectation] = [:]
        for row in rows.dropFirst() where row.count > max(file, width, height, decodes) {
            result[row[file]] = Expectation(file: row[file], uprightWidth: Int(row[width]), uprightHeight: Int(row[height]), decodes: row[decodes])
        }
        return result
    }()

    /// The upright size of a sample photo (orientation applied), from expectations.csv.
    static func uprightSize(_ sample: String) -> (width: Int, height: Int)? {
        guard let row = expectations[sample], let w = row.uprightWidth, let h = row.uprightHeight else { return nil }
        return (w, h)
    }

    /// RFC 4180-style: quoted fields may hold commas, newlines and doubled quotes.
    static func parseCSV(_ text: String) -> [[String]] {
        let characters = Array(text)
        var rows: [[String]] = [], row: [String] = [], field = "", quoted = false
        var i = 0
        while i < characters.count {
            let c = characters[i]
            i += 1
            if quoted {
                if c != "\"" { field.append(c) }
                else if i < characters.count, characters[i] == "\"" { field.append("\""); i += 1 }
                else { quoted = false }
                continue
            }
            switch c {
            case "\"": quoted = true
            case ",": row.append(field); field = ""
            case "\n", "\r\n": row.append(field); field = ""; rows.append(row); row = []
            default: field.append(c)
            }
        }
        if !field.isEmpty || !row.isEmpty { row.append(field); rows.append(row) }
        return rows
    }
}
