extension Output {
    /// An Output of the values of the Output that `transform` returns for the latest value.
    ///
    /// Switches: when this Output delivers a new value, the previous inner Output is unbound, so its
    /// later updates no longer reach the result. (The original framework kept every inner bound.)
    public final func flatMap<Inner>(
        file: StaticString = #fileID, line: UInt = #line, _ transform: @escaping (Value) -> Output<Inner>
    ) -> Output<Inner> {
        let derived = derive(Inner.self, kind: .flatMap, file: file, line: line)
        // Holds the current inner Output (which may have no other owner) and its subscription.
        let current = Guarded<(inner: Output<Inner>, subscription: Subscription)?>(nil)
        bindInternal(
            { value in
                let inner = transform(value)
                derived.recordInnerSwitch(to: inner)
                let previous = current.update { current in
                    defer { current = nil }
                    return current
                }
                previous?.subscription.unsubscribe()
                let subscription = inner.bindInternal(
                    { value in derived.update(withValue: value) }, file: file, line: line)
                let replaced = current.update { current in
                    defer { current = (inner, subscription) }
                    return current
                }
                // Another thread switched at the same time: keep only the newest inner bound.
                replaced?.subscription.unsubscribe()
            }, file: file, line: line)
        return derived
    }
}
