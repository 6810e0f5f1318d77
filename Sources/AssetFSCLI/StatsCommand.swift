import Foundation
import Glibc
import Posix

/// `assetfs stats MOUNTPOINT`: the mount's counters (its `user.assetfs.stats` attribute), readably.
enum StatsCommand {
    static func run(_ arguments: [String]) throws(UsageError) -> Int32 {
        guard arguments.count == 1, let mountpoint = arguments.first else { throw UsageError("usage: assetfs stats MOUNTPOINT") }
        let value: [UInt8]
        do { value = try ExtendedAttributes.value(of: "user.assetfs.stats", at: FilePath(mountpoint)) } catch {
            throw UsageError("\(mountpoint): no assetfs statistics (\(error)); is an assetfs mount there?")
        }
        for (key, value) in fields(String(decoding: value, as: UTF8.self)) {
            print("\(key.replacingUnderscores().padding(to: 16))\(value)")
        }
        return 0
    }

    /// The fields of the attribute's flat JSON object, in its order: numbers as written, strings
    /// (the last catalog error) decoded, "none" when empty.
    static func fields(_ json: String) -> [(key: String, value: String)] {
        var result: [(key: String, value: String)] = []
        let scanner = Scanner(string: json)
        scanner.charactersToBeSkipped = .whitespacesAndNewlines
        _ = scanner.scanString("{")
        while let key = scanString(scanner), scanner.scanString(":") != nil {
            if let text = scanString(scanner) {
                result.append((key, text.isEmpty ? "none" : text))
            } else if let number = scanner.scanUpToCharacters(from: CharacterSet(charactersIn: ",}")) {
                result.append((key, number))
            }
            guard scanner.scanString(",") != nil else { break }
        }
        return result
    }

    /// A JSON string at the scanner, decoded (nil, scanning nothing, when there is none).
    private static func scanString(_ scanner: Scanner) -> String? {
        let start = scanner.currentIndex
        guard scanner.scanString("\"") != nil else { return nil }
        var escaped = false
        while let character = scanner.scanCharacter() {
            if character == "\"" && !escaped {
                let literal = String(scanner.string[start..<scanner.currentIndex])
                return (try? JSONSerialization.jsonObject(with: Data(literal.utf8), options: .fragmentsAllowed)) as? String
            }
            escaped = character == "\\" && !escaped
        }
        scanner.currentIndex = start
        return nil
    }
}

extension String {
    func replacingUnderscores() -> String { String(map { $0 == "_" ? " " : $0 }) }
    func padding(to width: Int) -> String { count >= width ? self + " " : self + String(repeating: " ", count: width - count) }
}
