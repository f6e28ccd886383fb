/// Escaping for text from the trace placed into HTML.
///
/// Trace data only ever lands in element text or in double-quoted attribute values, never in
/// URLs, event handlers, `<script>` or `<style>`: escaping `& < > " '` is then enough.
enum HTMLText {
    /// `text` safe as element content and as a double- or single-quoted attribute value.
    static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            // Control characters other than tab and newline are not allowed in HTML text.
            case "\u{0}"..."\u{8}", "\u{B}", "\u{C}", "\u{E}"..."\u{1F}", "\u{7F}": result += "\u{FFFD}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}

/// Builds an HTML document as text. Every `text(_:)` and attribute value is escaped; `raw(_:)` is
/// only for markup this module writes itself.
struct HTMLBuilder {
    private(set) var output = ""

    mutating func raw(_ markup: String) { output += markup }

    mutating func text(_ text: String) { output += HTMLText.escape(text) }

    /// `<name attributes>` with every value escaped; `nil` values are left out.
    mutating func open(_ name: String, _ attributes: KeyValuePairs<String, String?> = [:]) {
        output += "<\(name)"
        for (key, value) in attributes {
            guard let value else { continue }
            output += " \(key)=\"\(HTMLText.escape(value))\""
        }
        output += ">"
    }

    mutating func close(_ name: String) { output += "</\(name)>" }

    /// `<name attributes>text</name>`.
    mutating func element(_ name: String, _ attributes: KeyValuePairs<String, String?> = [:], text: String) {
        open(name, attributes)
        self.text(text)
        close(name)
    }
}
