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
        let json = String(decoding: value, as: UTF8.self)
        for field in json.dropFirst().dropLast().split(separator: ",") {
            let parts = field.split(separator: ":", maxSplits: 1)
            guard parts.count == 2 else { continue }
            let key = parts[0].filter { $0 != "\"" }.replacingUnderscores()
            print("\(key.padding(to: 16))\(parts[1])")
        }
        return 0
    }
}

extension String {
    func replacingUnderscores() -> String { String(map { $0 == "_" ? " " : $0 }) }
    func padding(to width: Int) -> String { count >= width ? self + " " : self + String(repeating: " ", count: width - count) }
}
