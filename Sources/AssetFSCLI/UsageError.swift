/// A mistake on the command line: one line naming the problem and, where there is one, the fix.
public struct UsageError: Error, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
