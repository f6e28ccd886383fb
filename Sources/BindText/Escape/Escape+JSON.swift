extension Escape {
    /// `text` as a JSON string literal, quotes included.
    ///
    /// Escaped per RFC 8259, and further so the text stays inert wherever the JSON is shown: every
    /// character ``terminal(_:spelling:)`` would escape, and `<`, `>`, `&` (safe to paste into HTML),
    /// are written as `\uXXXX`.
    ///
    /// ```swift
    /// Escape.jsonString("a\"b<")  // "\"a\\\"b\\u003c\""
    /// ```
    package static func jsonString(_ text: String) -> String {
        var result = ""
        jsonString(text, into: &result)
        return result
    }

    /// Appends `text` as a JSON string literal to `result` (see ``jsonString(_:)``).
    package static func jsonString(_ text: String, into result: inout String) {
        result.reserveCapacity(result.utf8.count + text.utf8.count + 2)
        result += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "<", ">", "&": result += jsonHexEscape(scalar)
            default:
                if isTerminalUnsafe(scalar) {
                    result += jsonHexEscape(scalar)
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        result += "\""
    }

    /// `\u001b`: a scalar of the Basic Multilingual Plane as a JSON escape (all the ones escaped are).
    static func jsonHexEscape(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16)
        return "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
