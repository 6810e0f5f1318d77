import Synchronization

/// Counters since this mount started, reported through `user.assetfs.stats`.
public final class Statistics: Sendable {
    public let renders = Atomic<Int>(0)
    /// Of those, the poster frames of videos.
    public let posters = Atomic<Int>(0)
    public let renderFailures = Atomic<Int>(0)
    public let cacheHits = Atomic<Int>(0)
    public let cacheMisses = Atomic<Int>(0)
    /// Folders of SOURCE read since the mount started: a change costs what it touches.
    public let foldersRead = Atomic<Int>(0)

    public init() {}

    static func bump(_ counter: borrowing Atomic<Int>) { counter.wrappingAdd(1, ordering: .relaxed) }
}

/// JSON text for the statistics attribute.
enum JSON {
    /// `text` as a JSON string: quotes, backslashes and control characters escaped.
    static func string(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case _ where scalar.value < 0x20: result += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count) + String(scalar.value, radix: 16)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
