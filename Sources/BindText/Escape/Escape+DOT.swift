extension Escape {
    /// The look-alike shown for a backslash where Graphviz would interpret one: `⧵` (U+29F5).
    package static let dotBackslashStandIn: Character = "\u{29F5}"

    /// `text` as a Graphviz plain escString attribute (a tooltip) or a node name: every backslash
    /// becomes ``dotBackslashStandIn``.
    ///
    /// Graphviz 2.43 interprets an escString twice, so no backslash escape survives reliably, and it
    /// writes node names into DOT output without escaping backslashes (a trailing one would break
    /// the DOT text). Apply to text already sanitised for display (no control characters).
    package static func dotLabel(_ text: String) -> String {
        replacing(text) { $0 == "\\" ? String(dotBackslashStandIn) : nil }
    }

    /// `text` as character data inside a Graphviz HTML-like label: `& < > "` become entities and
    /// every backslash is doubled.
    ///
    /// Graphviz 2.43 expands `\N`, `\G`, `\E`, `\T`, `\H`, `\L` to object names even inside HTML-like
    /// text and turns `\\` into `\` (measured; an entity such as `&#92;` does not help, it is decoded
    /// before the expansion). Apply to text already sanitised for display (no control characters).
    package static func dotHTMLLabel(_ text: String) -> String {
        replacing(text) { scalar in
            switch scalar {
            case "\"": "&quot;"
            case "\\": "\\\\"
            default: markupEntity(scalar)
            }
        }
    }
}
