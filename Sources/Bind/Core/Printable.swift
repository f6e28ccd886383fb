/// Where ``Output/debug(identifier:)`` writes its log.
public protocol Printable {
    /// Writes one line of the log.
    func print(_ value: String)
}

/// The default ``Printable``: writes each line to standard output.
public struct StandardOutputPrinter: Printable, Sendable {
    /// Creates a printer that writes to standard output.
    public init() {}
    /// Writes `value` and a newline to standard output.
    public func print(_ value: String) { Swift.print(value) }
}

/// The log of one Output marked with ``Output/debug(identifier:)``, in the original framework's words.
@usableFromInline
final class DebugLog: @unchecked Sendable {
    let identifier: String
    /// The Output's type as Swift prints it, e.g. `Output<Bool>`.
    let typeName: String
    let printer: Printable

    init(identifier: String, typeName: String, printer: Printable) {
        self.identifier = identifier
        self.typeName = typeName
        self.printer = printer
    }

    /// `bindings` is how many closures are bound, this one included.
    @usableFromInline
    func bound(bindings: Int) {
        printer.print("---")
        printer.print("Binding \(identifier) (\(typeName)) to (Function)")
        printer.print("To bindings: \(Self.describe(bindings))")
    }

    @usableFromInline
    func initialValue<Value>(_ value: Value) {
        printer.print("Initial value for \(identifier) (\(typeName)) is \(value)")
    }

    @usableFromInline
    func willUpdate<Value>(_ value: Value, bindings: Int) {
        printer.print("---")
        printer.print("Will update value for \(identifier) (\(typeName)) to \(value)")
        printer.print("To bindings: \(Self.describe(bindings))")
    }

    @usableFromInline
    func didUpdate<Value>(_ value: Value, bindings: Int) {
        printer.print("Did update value for \(identifier) (\(typeName)) to \(value)")
        printer.print("To bindings: \(Self.describe(bindings))")
    }

    /// The bound closures as the original printed its `[Subscription: (Value) -> Void]` dictionary.
    static func describe(_ bindings: Int) -> String {
        guard bindings > 0 else { return "[:]" }
        return "[" + repeatElement("Bind.Subscription: (Function)", count: bindings).joined(separator: ", ") + "]"
    }
}
