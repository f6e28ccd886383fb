import BindTraceFormat

extension Output {
    /// An Output of the values of the Output that `transform` returns for the latest value.
    ///
    /// Switches: when this Output delivers a new value, the previous inner Output is unbound, so its
    /// later updates no longer reach the result. (The original framework kept every inner bound.)
    /// Releasing this Output also unbinds the current inner one, so a long-lived inner Output does
    /// not keep the result alive.
    ///
    /// ```swift
    /// let profile = userID.flatMap { id in repository.profile(for: id) }
    /// ```
    @inlinable
    public final func flatMap<Inner>(
        file: StaticString = #fileID, line: UInt = #line, _ transform: @escaping (Value) -> Output<Inner>
    ) -> Output<Inner> {
        let derived = derive(Inner.self, kind: .flatMap, file: file, line: line)
        let switcher = InnerSwitch<Inner>()
        bindInternal(
            { value in
                let inner = transform(value)
                derived.recordInnerSwitch(to: inner)
                let generation = switcher.begin()
                let subscription = inner.bindInternalUnbindable(
                    { [weak switcher] value in
                        // An inner Output switched away from may still be delivering on another thread.
                        // Weak: the switcher holds the inner Output, which holds this closure.
                        guard let switcher, switcher.isCurrent(generation) else { return }
                        derived.updateFromOperator(value)
                    }, file: file, line: line)
                switcher.finish(generation, inner: inner, subscription: subscription)
            }, file: file, line: line, captures: .init(transform))
        return derived
    }

    /// ``flatMap(file:line:_:)`` as a function value: records no call site.
    @_disfavoredOverload
    @inlinable
    public final func flatMap<Inner>(_ transform: @escaping (Value) -> Output<Inner>) -> Output<Inner> {
        flatMap(file: #fileID, line: #line, transform)
    }
}

/// The inner Output a ``Output/flatMap(file:line:_:)`` currently follows.
///
/// Each switch takes a new generation; only the newest generation may deliver or stay bound, so a
/// switch made from inside a delivery (or on another thread) while an older one is still binding wins.
@usableFromInline
final class InnerSwitch<Inner>: @unchecked Sendable {
    private let lock = Lock()
    /// Guarded by `lock`.
    private var generation: UInt64 = 0
    /// Guarded by `lock`. Holds the inner Output, which may have no other owner.
    private var current: (inner: Output<Inner>, subscription: Subscription)?

    deinit {
        // The source is gone: stop following the inner Output, which may outlive it.
        current?.subscription.unsubscribe()
        lock.deallocate()
    }

    @usableFromInline init() {}

    /// Starts a switch: unbinds the current inner Output and returns the new generation.
    @usableFromInline func begin() -> UInt64 {
        lock.lock()
        generation &+= 1
        let started = generation
        let previous = current
        current = nil
        lock.unlock()
        previous?.subscription.unsubscribe()
        return started
    }

    @usableFromInline func isCurrent(_ candidate: UInt64) -> Bool {
        lock.withLock { generation == candidate }
    }

    /// Keeps `inner` bound if no newer switch began meanwhile; otherwise unbinds it.
    @usableFromInline func finish(_ finished: UInt64, inner: Output<Inner>, subscription: Subscription) {
        lock.lock()
        let isNewest = generation == finished
        if isNewest { current = (inner, subscription) }
        lock.unlock()
        if !isNewest { subscription.unsubscribe() }
    }
}
