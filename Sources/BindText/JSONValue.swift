/// A JSON value whose object members keep their order, for stable, diffable output.
///
/// The one JSON writer of the CLI and the reports; strings are written by ``Escape/jsonString(_:)``.
package indirect enum JSONValue: Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    case uint(UInt64)
    /// A fraction (a ratio); not finite, it is written `null`.
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    /// A number from an `Int`.
    package static func number(_ value: Int) -> JSONValue { .int(Int64(value)) }

    /// The value on one line, without spaces.
    package var compactText: String {
        var result = ""
        write(to: &result, indent: nil)
        return result
    }

    /// The value pretty-printed with two-space indentation.
    package var prettyText: String {
        var result = ""
        write(to: &result, indent: "")
        return result
    }

    private func write(to result: inout String, indent: String?) {
        switch self {
        case .null: result += "null"
        case .bool(let value): result += value ? "true" : "false"
        case .int(let value): result += String(value)
        case .uint(let value): result += String(value)
        case .double(let value): result += value.isFinite ? String(value) : "null"
        case .string(let value): Escape.jsonString(value, into: &result)
        case .array(let values):
            writeContainer("[", "]", count: values.count, into: &result, indent: indent) { index, result, inner in
                values[index].write(to: &result, indent: inner)
            }
        case .object(let members):
            writeContainer("{", "}", count: members.count, into: &result, indent: indent) { index, result, inner in
                Escape.jsonString(members[index].0, into: &result)
                result += indent == nil ? ":" : ": "
                members[index].1.write(to: &result, indent: inner)
            }
        }
    }

    private func writeContainer(
        _ open: String, _ close: String, count: Int, into result: inout String, indent: String?,
        element: (Int, inout String, String?) -> Void
    ) {
        result += open
        guard count > 0 else { return result += close }
        let inner = indent.map { $0 + "  " }
        for index in 0..<count {
            if index > 0 { result += "," }
            if let inner { result += "\n" + inner }
            element(index, &result, inner)
        }
        if let indent { result += "\n" + indent }
        result += close
    }
}
