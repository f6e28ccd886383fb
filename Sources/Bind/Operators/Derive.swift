#if Tracing
import CBindTrace
#endif

extension Output {
    /// A new Output derived from this one, recorded with an edge from this one.
    ///
    /// It stores values only when this Output does, so what is derived from a ``Relay`` does not replay.
    @usableFromInline
    final func derive<Derived>(
        _ type: Derived.Type, kind: OutputKind, file: StaticString, line: UInt, storesValues: Bool? = nil
    ) -> Output<Derived> {
        let derived = Output<Derived>(
            value: nil, storesValues: storesValues ?? self.storesValues, kind: kind, file: file, line: line)
        recordEdge(to: derived, kind: kind)
        return derived
    }

    /// Binds a closure of an operator: recorded as internal, at the operator's call site.
    @inlinable
    @discardableResult
    final func bindInternal(_ closure: @escaping (Value) -> Void, file: StaticString, line: UInt)
        -> Subscription
    {
        #if Tracing
        return bind(closure, origin: .operator, file: file, line: line)
        #else
        return bind(closure, file: file, line: line, isInternal: true)
        #endif
    }

    @usableFromInline
    final func recordEdge<Derived>(to derived: Output<Derived>, kind: OutputKind) {
        #if Tracing
        guard bt_is_recording() else { return }
        lock.withLock {
            TraceRecorder.edge(
                from: trace, to: derived.trace, kind: kind, sourceSubscribers: subscribers.lazy.map { $0.trace })
        }
        #endif
    }

    final func recordInnerSwitch<Inner>(to inner: Output<Inner>) {
        #if Tracing
        guard bt_is_recording() else { return }
        inner.lock.withLock {
            TraceRecorder.innerSwitch(
                flatMap: trace, inner: inner.trace, innerSubscribers: inner.subscribers.lazy.map { $0.trace })
        }
        #endif
    }
}

/// A value behind a lock, for the state operators keep between deliveries.
@usableFromInline
final class Guarded<State>: @unchecked Sendable {
    private let lock = Lock()
    private var state: State

    @usableFromInline
    init(_ state: State) { self.state = state }

    deinit { lock.deallocate() }

    @usableFromInline
    func update<Result>(_ body: (inout State) -> Result) -> Result {
        lock.withLock { body(&state) }
    }
}
