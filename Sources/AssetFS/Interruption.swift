import Posix

/// The caller of a kernel request may go before its answer is ready: a reader killed or
/// signalled while it waits for a render (FUSE INTERRUPT). Work a request waits for registers
/// here what to do then, as the last subscriber leaving cancels a task in Nuke's pipeline: the
/// request stops waiting, and a render nobody waits for any more is lowered or dropped.
public final class Interruption: Sendable {
    /// Gives a request's `Interruption`, asked for only when the request must wait (an answer
    /// known at once costs no registration with the kernel side); nil once the request is answered.
    public typealias Source = @Sendable () -> Interruption?

    private let state = Locked(State.waiting([]))

    private enum State {
        case waiting([@Sendable () -> Void])
        case interrupted
    }

    public init() {}

    /// Runs what was registered, once; what is registered from now on runs at once.
    public func interrupt() {
        let actions = state.withLock { state -> [@Sendable () -> Void] in
            guard case .waiting(let actions) = state else { return [] }
            state = .interrupted
            return actions
        }
        for action in actions { action() }
    }

    /// Registers `action` for the interrupt (run now if it has come).
    func onInterrupt(_ action: @escaping @Sendable () -> Void) {
        let now = state.withLock { state -> Bool in
            guard case .waiting(var actions) = state else { return true }
            actions.append(action)
            state = .waiting(actions)
            return false
        }
        if now { action() }
    }
}
