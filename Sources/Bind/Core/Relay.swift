/// A stateless ``Output``: it passes each value to its bound closures and forgets it.
///
/// A closure bound later, or a `combine` built later, never sees an earlier value.
///
/// ```swift
/// let tapped = Relay<Void>()
/// tapped.bind { print("tapped") }
/// tapped.fire()
/// ```
public final class Relay<Value>: Output<Value> {
    /// Creates a Relay. It stores nothing, so there is no initial value.
    public init(file: StaticString = #fileID, line: UInt = #line) {
        super.init(value: nil, storesValues: false, kind: .relay, file: file, line: line)
    }
}

extension Relay where Value == Void {
    /// Calls every bound closure.
    @inlinable
    public func fire() { update(withValue: ()) }
}

extension Relay: @unchecked Sendable where Value: Sendable {}
