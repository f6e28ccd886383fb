import BindTraceFormat

extension Output {
    /// A new Output derived from this one, recorded with an edge from this one.
    ///
    /// It stores values only when this Output does, so what is derived from a ``Relay`` does not replay.
    /// Inlinable, so the new Output is made specialised (see ``Output/init(value:storesValues:kind:file:line:)``).
    @inlinable
    final func derive<Derived>(
        _ type: Derived.Type, kind: OutputKind, file: StaticString, line: UInt, storesValues: Bool? = nil
    ) -> Output<Derived> {
        let derived = Output<Derived>(
            value: nil, storesValues: storesValues ?? self.storesValues, kind: kind, file: file, line: line)
        recordEdge(to: derived, kind: kind)
        return derived
    }

    /// Binds a closure of an operator: recorded as internal, at the operator's call site, with what
    /// the operator's transform captures (`captures`): the transform is what can hold an owner.
    @inlinable
    final func bindInternal(
        _ closure: @escaping (Value) -> Void, file: StaticString, line: UInt, captures: CaptureProbe = .none
    ) {
        _ = bind(closure, site: .operator(file: file, line: line), captures: captures)
    }

    /// ``bindInternal(_:file:line:)`` for an operator that unbinds later (flatMap's inner Outputs).
    @inlinable
    final func bindInternalUnbindable(_ closure: @escaping (Value) -> Void, file: StaticString, line: UInt)
        -> Subscription
    {
        Subscription(source: subscribers, token: bind(closure, site: .operator(file: file, line: line)))
    }

    /// ``update(withValue:)`` from an operator's closure: one step of a ``Cascade``, so chains of
    /// any depth update without deep recursion.
    @inlinable
    final func updateFromOperator(_ value: Value) {
        Cascade.update(self, with: value)
    }

    @usableFromInline
    final func recordEdge<Derived>(to derived: Output<Derived>, kind: OutputKind) {
        Probe.edge(from: subscribers, to: derived.subscribers, kind: kind)
    }

    /// What this Output, a source of `derived`, tells the trace when `derived` stops because it
    /// was released.
    @usableFromInline
    final func stopProbe<Derived>(for derived: Output<Derived>) -> StopProbe {
        StopProbe(source: subscribers, derived: derived.subscribers)
    }

    @usableFromInline
    final func recordInnerSwitch<Inner>(to inner: Output<Inner>) {
        Probe.innerSwitch(from: subscribers, to: inner.subscribers)
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
