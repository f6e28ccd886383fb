/// A minimal JSON writer for SARIF: values are built as a tree, then printed with escaping.
indirect enum JSONValue {
    case string(String)
    case number(Int)
    case bool(Bool)
    case array([JSONValue])
    /// Keys keep their order, for a stable, diffable file.
    case object([(String, JSONValue)])

    /// Pretty-printed with two-space indentation.
    func rendered(indent: String = "") -> String {
        switch self {
        case .string(let text): return Self.quote(text)
        case .number(let number): return String(number)
        case .bool(let flag): return flag ? "true" : "false"
        case .array(let items):
            if items.isEmpty { return "[]" }
            let inner = indent + "  "
            return "[\n" + items.map { inner + $0.rendered(indent: inner) }.joined(separator: ",\n") + "\n\(indent)]"
        case .object(let members):
            if members.isEmpty { return "{}" }
            let inner = indent + "  "
            let lines = members.map { "\(inner)\(Self.quote($0.0)): \($0.1.rendered(indent: inner))" }
            return "{\n" + lines.joined(separator: ",\n") + "\n\(indent)}"
        }
    }

    /// `text` as a JSON string (RFC 8259): quotes, backslashes and control characters escaped.
    /// `<`, `>` and `&` are escaped as well, so the text stays inert if pasted into HTML.
    static func quote(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\u{0}"..."\u{1F}", "<", ">", "&", "\u{2028}", "\u{2029}":
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
