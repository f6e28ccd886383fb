extension Escape {
    /// `text` safe as HTML element content, including the text of inline SVG.
    ///
    /// `& < > " '` become entities, so text never opens a tag, and stays inert even where a caller
    /// puts it inside a quoted value; control characters HTML does not allow in text (C0 but tab,
    /// line feed and carriage return; DEL; C1) and the noncharacters U+FFFE/U+FFFF become U+FFFD;
    /// bidirectional formatting characters show as their code (`\u{202E}`), never reorder the page.
    /// Trace data never lands in URLs, event handlers, `<script>` or `<style>`.
    ///
    /// ```swift
    /// Escape.htmlText("<b>Tom & Jerry</b>")  // "&lt;b&gt;Tom &amp; Jerry&lt;/b&gt;"
    /// ```
    package static func htmlText(_ text: String) -> String {
        replacing(text, htmlTextReplacement)
    }

    /// `text` safe as an HTML attribute value in double or single quotes: as ``htmlText(_:)``, and
    /// line feed, carriage return and tab become references, so the value stays on one line and
    /// keeps its white space when the page is read as XML (which normalises it to spaces).
    package static func htmlAttribute(_ text: String) -> String {
        replacing(text) { scalar in
            switch scalar {
            case "\n": "&#10;"
            case "\r": "&#13;"
            case "\t": "&#9;"
            default: htmlTextReplacement(scalar)
            }
        }
    }

    private static func htmlTextReplacement(_ scalar: Unicode.Scalar) -> String? {
        switch scalar.value {
        case 0x22: "&quot;"
        case 0x27: "&#39;"
        case 0x09, 0x0A, 0x0D: nil
        case 0x00...0x1F, 0x7F...0x9F, 0xFFFE, 0xFFFF: replacementCharacter
        default: isBidirectionalControl(scalar) ? visibleCode(scalar) : markupEntity(scalar)
        }
    }
}
