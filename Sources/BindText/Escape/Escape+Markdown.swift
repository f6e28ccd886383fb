extension Escape {
    /// `text` safe as inline text of GitHub-flavoured Markdown (a pull-request comment, a CI step
    /// summary): it shows as written and makes no markup, link, mention or HTML.
    ///
    /// `& < >` become entities (GitHub passes HTML through to its sanitiser; an entity is text);
    /// Markdown's punctuation (`` \ ` * _ { } [ ] ( ) # + - | ~ ``) is backslash-escaped, so no
    /// emphasis, code, link, image, table cell, heading or list starts; `@` becomes an entity, so no
    /// `@mention` pings anyone. (A bare `https://…` may still show as a link: its text is the
    /// address, so it hides nothing.) Line breaks and tabs become
    /// spaces (one line stays one line, one table cell one cell); other control characters become
    /// U+FFFD and bidirectional formatting characters show as their code (`\u{202E}`).
    ///
    /// ```swift
    /// Escape.markdown("[click](https://x) @team")  // "\[click\]\(https://x\) &#64;team"
    /// ```
    package static func markdown(_ text: String) -> String {
        replacing(text) { scalar in
            switch scalar {
            case "\\", "`", "*", "_", "{", "}", "[", "]", "(", ")", "#", "+", "-", "|", "~":
                "\\" + String(scalar)
            case "@": "&#64;"
            case "\n", "\r", "\t": " "
            default:
                switch scalar.value {
                case 0x00...0x1F, 0x7F...0x9F, 0xFFFE, 0xFFFF: replacementCharacter
                default: isBidirectionalControl(scalar) ? visibleCode(scalar) : markupEntity(scalar)
                }
            }
        }
    }
}
