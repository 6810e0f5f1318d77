import Foundation
import Glibc
import MountModel
import Posix

/// `assetfs stats MOUNTPOINT`: the mount's counters (its `user.assetfs.stats` attribute), readably.
enum StatsCommand {
    static func run(_ arguments: [String]) throws(UsageError) -> Int32 {
        guard arguments.count == 1, let mountpoint = arguments.first else { throw UsageError("usage: assetfs stats MOUNTPOINT") }
        let value: [UInt8]
        do { value = try ExtendedAttributes.value(of: String(decoding: MountLayout.statsAttribute, as: UTF8.self), at: FilePath(mountpoint)) } catch {
            throw UsageError("\(mountpoint): no assetfs statistics (\(error)); is an assetfs mount there?")
        }
        for (key, value) in fields(String(decoding: value, as: UTF8.self)) {
            print("\(key.replacingUnderscores().padding(to: 16))\(value)")
        }
        return 0
    }

    /// The fields of the attribute's flat JSON object, in its order (the keys as the text has
    /// them: a dictionary keeps none): numbers as they are, strings (the last catalog error)
    /// decoded, "none" when empty.
    static func fields(_ json: String) -> [(key: String, value: String)] {
        guard let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] else { return [] }
        var seen = Set<String>()
        return json.matches(of: try! Regex(#""([a-z_]+)":"#)).compactMap { match -> (key: String, value: String)? in
            guard let key = match.output[1].substring.map(String.init), seen.insert(key).inserted, let value = object[key] else { return nil }
            if let text = value as? String { return (key, text.isEmpty ? "none" : text) }
            return (key, "\(value)")
        }
    }
}

extension String {
    func replacingUnderscores() -> String { String(map { $0 == "_" ? " " : $0 }) }
    func padding(to width: Int) -> String { count >= width ? self + " " : self + String(repeating: " ", count: width - count) }
}
