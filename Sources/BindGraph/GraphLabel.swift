import BindText

/// Turns untrusted text (names and values read from trace files) into strings Graphviz draws
/// literally, legibly and safely.
///
/// Every string that reaches Graphviz goes through here first. The rules:
///
/// - **Characters XML cannot carry** become visible stand-ins: C0 controls and DEL become their
///   Control Pictures (`U+0000` → `␀`, `U+001B` → `␛`), C1 controls and the noncharacters
///   `U+FFFE`/`U+FFFF` become `U+FFFD` `�`, a tab becomes a space. (SVG is XML: one raw control
///   character would make the whole picture unparseable, and Graphviz's HTML-label parser rejects them.)
/// - **Bidirectional overrides and isolates** (`U+202A`–`U+202E`, `U+2066`–`U+2069`) become `�`,
///   so a label cannot visually reorder the text around it.
/// - **Line breaks** (`\n`, `\r\n`, `\r`, `U+2028`, `U+2029`) split the text into lines.
/// - **Length** (the cuts are `Shorten.text`'s, BindText's one shortening rule): each line is cut at a
///   `Character` boundary to ``Limits/maxLineLength`` characters with a trailing `…`; a character
///   carrying more than ``Limits/maxScalarsPerCharacter`` Unicode scalars (a "zalgo" pile of
///   combining marks) keeps only that many; more than
///   ``Limits/maxLines`` lines end in a `… N more lines` line.
/// - **Escaping** is BindText's: HTML-like labels (every label we draw is one) go through
///   `Escape.dotHTMLLabel` (`& < > "` as entities, backslashes doubled), plain escString attributes
///   (tooltips) and identifiers (node names, shown as the SVG `<title>`) through `Escape.dotLabel`
///   (a backslash shown as the look-alike `⧵`); their documentation says why.
///
/// Invalid UTF-8 never reaches here as bytes (Swift `String`s are valid Unicode); text decoded
/// from bad bytes arrives with `U+FFFD` in place, which is kept and drawn as `�`.
enum GraphLabel {
    /// How much text one label may show.
    struct Limits: Equatable, Sendable {
        /// Characters per line, the ellipsis included.
        var maxLineLength: Int
        /// Lines per label, the "… N more lines" line included.
        var maxLines: Int
        /// Unicode scalars kept in one character (a base plus combining marks, or an emoji sequence).
        var maxScalarsPerCharacter: Int

        /// 80 characters a line, 8 lines, 16 scalars a character.
        static let standard = Limits(maxLineLength: 80, maxLines: 8, maxScalarsPerCharacter: 16)
        /// One line of up to 200 characters: identifiers and graph or cluster titles.
        static let singleLine = Limits(maxLineLength: 200, maxLines: 1, maxScalarsPerCharacter: 16)
        /// One line of up to 80 characters: node titles, edge labels, legend entries.
        static let shortLine = Limits(maxLineLength: 80, maxLines: 1, maxScalarsPerCharacter: 16)
    }

    static let ellipsis: Character = "…"

    // MARK: Sanitising

    /// Splits `text` into display lines: stand-ins for unsafe characters, line breaks honoured,
    /// each line and the line count limited.
    static func lines(_ text: String, limits: Limits = .standard) -> [String] {
        var lines: [String] = []
        var current = String.UnicodeScalarView()
        var afterCarriageReturn = false
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x0A where afterCarriageReturn:
                afterCarriageReturn = false
                continue
            case 0x0A, 0x0D, 0x2028, 0x2029:
                lines.append(String(current))
                current = String.UnicodeScalarView()
                afterCarriageReturn = scalar.value == 0x0D
                continue
            default:
                afterCarriageReturn = false
                current.append(visible(scalar))
            }
        }
        lines.append(String(current))
        return limitLines(lines.map { limitLine($0, limits: limits) }, limits: limits)
    }

    /// The display lines of several texts, one after another, limited together.
    static func lines(_ texts: [String], limits: Limits = .standard) -> [String] {
        limitLines(texts.flatMap { lines($0, limits: limits) }, limits: limits)
    }

    /// One line of text (line breaks shown as spaces), sanitised and limited.
    static func singleLine(_ text: String, limits: Limits = .singleLine) -> String {
        let flattened = String(
            String.UnicodeScalarView(
                text.unicodeScalars.map { scalar -> Unicode.Scalar in
                    switch scalar.value {
                    case 0x0A, 0x0D, 0x2028, 0x2029: return " "
                    default: return visible(scalar)
                    }
                }
            )
        )
        return limitLine(flattened, limits: limits)
    }

    /// A Graphviz node name: one sanitised line without backslashes.
    static func identifier(_ text: String) -> String {
        Escape.dotLabel(singleLine(text))
    }

    // MARK: Escaping

    /// A plain escString attribute value (tooltip): lines joined by Graphviz's `\n`, backslashes
    /// replaced by `⧵` (see the type's documentation for why).
    static func plainAttribute(_ text: String, limits: Limits = .standard) -> String {
        lines(text, limits: limits)
            .map(Escape.dotLabel)
            .joined(separator: "\\n")
    }

    /// An HTML-like label: an optional bold title over detail lines (in `detailPointSize` if given).
    ///
    /// The result is markup for `bind_gv_set_html`, never shown as text: the label's content
    /// without DOT's outer `<…>`. It always starts with a `<FONT>` tag, so it can never equal a
    /// sanitised node id or tooltip that cgraph's string pool already holds as a plain string.
    static func html(title: String?, lines detail: [String], pointSize: Int, detailPointSize: Int? = nil) -> String {
        var parts: [String] = []
        if let title {
            parts.append("<B>" + Escape.dotHTMLLabel(title) + "</B>")
        }
        if !detail.isEmpty {
            let body = detail.map(Escape.dotHTMLLabel).joined(separator: "<BR/>")
            if let detailPointSize, detailPointSize != pointSize {
                parts.append("<FONT POINT-SIZE=\"\(detailPointSize)\">" + body + "</FONT>")
            } else {
                parts.append(body)
            }
        }
        return "<FONT POINT-SIZE=\"\(pointSize)\">" + parts.joined(separator: "<BR/>") + "</FONT>"
    }

    // MARK: Helpers

    private static func visible(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        switch scalar.value {
        case 0x09:
            return " "
        case 0x00...0x1F:
            return Unicode.Scalar(0x2400 + scalar.value) ?? replacement
        case 0x7F:
            return "\u{2421}"
        case 0x80...0x9F, 0xFFFE, 0xFFFF, 0x202A...0x202E, 0x2066...0x2069:
            return replacement
        default:
            return scalar
        }
    }

    private static let replacement: Unicode.Scalar = "\u{FFFD}"

    /// One line cut to the limits by the package's one shortening rule (`Shorten`, in BindText).
    private static func limitLine(_ line: String, limits: Limits) -> String {
        Shorten.text(line, to: limits.maxLineLength, scalarsPerCharacter: limits.maxScalarsPerCharacter)
    }

    private static func limitLines(_ lines: [String], limits: Limits) -> [String] {
        guard lines.count > limits.maxLines else { return lines }
        if limits.maxLines <= 1 {
            return [limitLine(lines[0] + String(ellipsis), limits: limits)]
        }
        let kept = lines.prefix(limits.maxLines - 1)
        let hidden = lines.count - kept.count
        return kept + ["\(ellipsis) \(hidden) more line\(hidden == 1 ? "" : "s")"]
    }
}
