import BindTraceFormat

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
    /// Creates a Relay. It stores none of the values it passes on.
    ///
    /// - Parameters:
    ///   - value: as in the original framework, a value every closure bound later is called with
    ///     at once (updates never replace it); usually left out.
    ///   - printer: where ``Output/debug(identifier:)`` prints.
    ///   - file: the `#fileID` of the creation site, recorded by the instrumented build.
    ///   - line: the line of the creation site.
    @inlinable
    public init(
        value: Value? = nil, printer: Printable = StandardOutputPrinter(), file: StaticString = #fileID,
        line: UInt = #line
    ) {
        super.init(value: value, storesValues: false, kind: .relay, file: file, line: line)
        self.printer = printer
    }
}

extension Relay where Value == Void {
    /// Calls every bound closure.
    ///
    /// - Parameters:
    ///   - file: the `#fileID` of the call site, recorded by the instrumented build (see
    ///     ``Output/update(withValue:file:line:)``).
    ///   - line: the line of the call site.
    @inlinable
    public func fire(file: StaticString = #fileID, line: UInt = #line) { update(withValue: (), file: file, line: line) }

    /// ``fire(file:line:)`` as a function value, e.g. `button.onTap = tapped.fire`: records no call site.
    @_disfavoredOverload
    @inlinable
    public func fire() { fire(file: #fileID, line: #line) }
}

extension Relay: @unchecked Sendable where Value: Sendable {}
