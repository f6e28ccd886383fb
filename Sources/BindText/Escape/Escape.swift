/// Every escaper of the package: one function per place a string from a trace can land.
///
/// A trace is untrusted, and escaping is where that trust is enforced, so it lives here once, each
/// destination with its own hostile-input tests (`Tests/BindTextTests/Escape*Tests.swift`):
///
/// | destination | function |
/// |---|---|
/// | HTML element text (and inline SVG text) | ``htmlText(_:)`` |
/// | HTML attribute value | ``htmlAttribute(_:)`` |
/// | XML 1.0 text or attribute value (JUnit) | ``xml(_:)`` |
/// | JSON string literal | ``jsonString(_:)`` |
/// | Graphviz plain escString attribute or node name | ``dotLabel(_:)`` |
/// | Graphviz HTML-like label text | ``dotHTMLLabel(_:)`` |
/// | Markdown inline text (pull-request comments) | ``markdown(_:)`` |
/// | a terminal or CI log line | ``terminal(_:spelling:)`` |
///
/// Each works scalar by scalar, never by `Character`: `<` followed by a combining mark is one
/// `Character`, and must still be escaped.
package enum Escape {
    /// `text` with every scalar that `replacement` maps replaced by what it returns.
    static func replacing(_ text: String, _ replacement: (Unicode.Scalar) -> String?) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if let replaced = replacement(scalar) {
                result += replaced
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// The entity for a scalar that opens a tag or an entity in HTML, XML and Graphviz HTML-like labels.
    static func markupEntity(_ scalar: Unicode.Scalar) -> String? {
        switch scalar {
        case "&": "&amp;"
        case "<": "&lt;"
        case ">": "&gt;"
        default: nil
        }
    }

    static let replacementCharacter = "\u{FFFD}"

    /// Whether `scalar` is a bidirectional formatting character (U+061C, U+200E–U+200F,
    /// U+202A–U+202E, U+2066–U+2069): text holding one shows in another order than it reads (a label
    /// can pass for a different one), so every destination people read shows its code instead.
    static func isBidirectionalControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// `\u{202E}`: a character spelled as its code, to be seen rather than obeyed.
    static func visibleCode(_ scalar: Unicode.Scalar) -> String {
        "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
    }
}
