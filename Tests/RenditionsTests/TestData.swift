import Containers
import Foundation
import Posix
import TestFixtures
@testable import Renditions

/// The test images vendored in Tests/Fixtures (located by `Fixtures`, the one place naming that
/// folder) and the facts `expectations.csv` states about each of them.
enum TestData {
    static let root: URL = URL(fileURLWithPath: Fixtures.root, isDirectory: true)

    static let packageRoot: URL = URL(fileURLWithPath: Fixtures.packageRoot, isDirectory: true)

    static func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }
    static func filePath(_ relative: String) -> FilePath { FilePath(path(relative)) }

    /// Every row of expectations.csv (empty if the file cannot be read: the tests using it then fail on `#require`).
    static let expectations: [Expectation] = {
        guard let text = try? String(contentsOfFile: path("expectations.csv"), encoding: .utf8) else { return [] }
        let rows = CSV.parse(text)
        guard let header = rows.first, header.prefix(7) == ["file", "width", "height", "orientation", "upright_width", "upright_height", "decodes_ok"] else { return [] }
        return rows.dropFirst().filter { $0.count >= 7 }.map(Expectation.init(row:))
    }()

    /// Every column of expectations.csv by header name, per file: for the columns past the first
    /// seven that `Expectation` keeps (e.g. `djpeg`: what libjpeg-turbo's djpeg said of the file).
    static let columns: [String: [String: String]] = {
        guard let text = try? String(contentsOfFile: path("expectations.csv"), encoding: .utf8) else { return [:] }
        let rows = CSV.parse(text)
        guard let header = rows.first else { return [:] }
        var result: [String: [String: String]] = [:]
        for row in rows.dropFirst() where row.count == header.count {
            result[row[0]] = Dictionary(uniqueKeysWithValues: zip(header, row))
        }
        return result
    }()

    static func column(_ name: String, of file: String) -> String? { columns[file]?[name] }

    static func expectations(in folders: String...) -> [Expectation] {
        expectations.filter { row in folders.contains { row.file.hasPrefix($0 + "/") } }
    }

    static func expectation(_ file: String) -> Expectation? { expectations.first { $0.file == file } }

    /// The first `count` bytes of a test file.
    static func bytes(_ relative: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path(relative)).map { [UInt8]($0) }
    }

    static func prefix(_ relative: String, count: Int) -> [UInt8] {
        guard let handle = FileHandle(forReadingAtPath: path(relative)) else { return [] }
        defer { try? handle.close() }
        return [UInt8](handle.readData(ofLength: count))
    }
}

/// One row of expectations.csv: the first seven columns.
struct Expectation: Sendable, CustomStringConvertible {
    enum Decodes: String, Sendable { case yes, no, partial }

    var file: String
    var width: Int?
    var height: Int?
    var orientation: Int?
    var upright: PixelSize?
    var decodes: Decodes?

    init(row: [String]) {
        file = row[0]
        width = Int(row[1])
        height = Int(row[2])
        orientation = Int(row[3])
        upright = Int(row[4]).flatMap { w in Int(row[5]).map { PixelSize(width: w, height: $0) } }
        decodes = Decodes(rawValue: row[6])
    }

    var path: String { TestData.path(file) }
    var description: String { file }
}

/// RFC 4180: fields separated by commas, optionally double-quoted, `""` inside quotes is a quote.
enum CSV {
    static func parse(_ text: String) -> [[String]] {
        var rows: [[String]] = []
        var row: [String] = []
        var field = ""
        var quoted = false
        var chars = text.makeIterator()
        var pending: Character? = nil
        func next() -> Character? {
            if let c = pending { pending = nil; return c }
            return chars.next()
        }
        while let c = next() {
            if quoted {
                if c == "\"" {
                    if let after = next() {
                        if after == "\"" { field.append("\"") } else { quoted = false; pending = after }
                    } else { quoted = false }
                } else { field.append(c) }
                continue
            }
            switch c {
            case "\"": quoted = true
            case ",": row.append(field); field = ""
            case "\n", "\r\n", "\r":
                row.append(field); field = ""
                if row != [""] { rows.append(row) }
                row = []
            default: field.append(c)
            }
        }
        if !field.isEmpty || !row.isEmpty { row.append(field); rows.append(row) }
        return rows
    }
}
