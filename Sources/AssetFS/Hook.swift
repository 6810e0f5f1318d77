import Posix

/// An action installed after construction, safe to call from any thread (a no-op until set).
final class Hook<Argument: Sendable>: Sendable {
    private let action = Locked<@Sendable (Argument) -> Void>({ _ in })
    func set(_ action: @escaping @Sendable (Argument) -> Void) { self.action.withLock { $0 = action } }
    func callAsFunction(_ argument: Argument) { action.withLock { $0 }(argument) }
}
