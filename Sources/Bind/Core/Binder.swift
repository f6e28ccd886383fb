/// Delivers values to a target object, which it holds weakly.
///
/// Once the target is released, values are dropped (the instrumented build records each such
/// delivery as a dangling binding).
///
/// ```swift
/// viewModel.title.bind(to: Binder(label) { label, title in label.text = title })
/// viewModel.title.bind(to: Binder(label, \.text))
/// ```
public struct Binder<Value> {
    /// Calls the binding when the target is alive; `false` when it is gone.
    @usableFromInline let deliverIfAlive: (Value) -> Bool
    /// What the instrumented build records of the target.
    @usableFromInline let probe: BinderProbe

    /// Creates a Binder that calls `binding` with the target and each value while the target lives.
    /// Inlinable, so the delivery closure is compiled for `Value` where the Binder is made.
    @inlinable
    public init<Target: AnyObject>(_ target: Target, binding: @escaping (Target, Value) -> Void) {
        deliverIfAlive = { [weak target] value in
            guard let target else { return false }
            binding(target, value)
            return true
        }
        probe = BinderProbe(target: target)
    }

    /// Creates a Binder that writes each value to `keyPath` of `target`.
    @inlinable
    public init<Target: AnyObject>(_ target: Target, _ keyPath: ReferenceWritableKeyPath<Target, Value>) {
        self.init(target) { target, value in target[keyPath: keyPath] = value }
    }

    /// Creates a Binder that writes each value to the optional property at `keyPath` of `target`.
    @inlinable
    public init<Target: AnyObject>(_ target: Target, _ keyPath: ReferenceWritableKeyPath<Target, Value?>) {
        self.init(target) { target, value in target[keyPath: keyPath] = value }
    }

    /// Delivers `value` to the target, if it is still alive.
    @inlinable
    public func on(_ value: Value) {
        _ = deliverIfAlive(value)
    }

    /// The closure an Output binds.
    @inlinable
    var delivery: (Value) -> Void { probe.delivery(deliverIfAlive) }
}
