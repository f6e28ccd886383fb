import BindText

/// Builds an HTML document as text. Every `text(_:)` and attribute value is escaped; `raw(_:)` is
/// only for markup this module writes itself.
struct HTMLBuilder {
    private(set) var output = ""

    mutating func raw(_ markup: String) { output += markup }

    mutating func text(_ text: String) { output += Escape.htmlText(text) }

    /// `<name attributes>` with every value escaped; `nil` values are left out.
    mutating func open(_ name: String, _ attributes: KeyValuePairs<String, String?> = [:]) {
        output += "<\(name)"
        for (key, value) in attributes {
            guard let value else { continue }
            output += " \(key)=\"\(Escape.htmlAttribute(value))\""
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
