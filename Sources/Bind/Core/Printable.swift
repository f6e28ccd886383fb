/// Where ``Output/debug(identifier:)`` writes its log.
public protocol Printable {
    func print(_ value: String)
}

/// The default ``Printable``: writes each line to standard output.
public struct StandardOutputPrinter: Printable, Sendable {
    public init() {}
    public func print(_ value: String) { Swift.print(value) }
}

/// The log of one Output marked with ``Output/debug(identifier:)``.
@usableFromInline
final class DebugLog: @unchecked Sendable {
    let identifier: String
    let printer: Printable

    init(identifier: String, printer: Printable) {
        self.identifier = identifier
        self.printer = printer
    }

    @usableFromInline
    func bound() { printer.print("[\(identifier)] bind") }

    @usableFromInline
    func updated<Value>(_ value: Value) { printer.print("[\(identifier)] update: \(value)") }
}
