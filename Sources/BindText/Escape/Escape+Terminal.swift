extension Escape {
    /// How ``terminal(_:spelling:)`` spells an escaped character.
    package enum TerminalSpelling: Sendable {
        /// `\u{1B}`: for text meant to be read.
        case visible
        /// `\u001b`: for JSON text, where every such character can only be inside a string.
        case json
    }

    /// `text` as one line safe to print on a terminal or into a CI log (standard output and standard
    /// error alike).
    ///
    /// A trace's strings must not move the cursor, recolour the terminal, reverse the reading order,
    /// start a new line, or begin a line that a CI system reads as a command. Escaped characters
    /// stay visible as `\u{1B}`:
    /// - control characters (C0 except tab, DEL, C1) and line or paragraph separators;
    /// - bidirectional formatting characters (U+061C, U+200E–U+200F, U+202A–U+202E, U+2066–U+2069);
    /// - a line that starts (after blanks) with a workflow command prefix — `::` (GitHub Actions),
    ///   `##` (Azure Pipelines `##vso[`, `##[`), `%%` (TeamCity-style) — gets its first character escaped.
    package static func terminal(_ text: String, spelling: TerminalSpelling = .visible) -> String {
        var result = needsTerminalEscaping(text) ? replacing(text) { terminalSpelled($0, spelling) } : text
        if startsLikeCommand(result) {
            // Escape the first non-blank character: the line reads the same, no CI system acts on it.
            let start = result.firstIndex { $0 != " " && $0 != "\t" } ?? result.startIndex
            let scalar = result.unicodeScalars[start]
            result.replaceSubrange(start...start, with: spelled(scalar, spelling))
        }
        return result
    }

    /// Whether `scalar` is never printed to a terminal as is.
    package static func isTerminalUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09: false
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x2028, 0x2029: true
        default: isBidirectionalControl(scalar)
        }
    }

    private static func needsTerminalEscaping(_ text: String) -> Bool {
        // Fast path: every unsafe scalar is below 0x20, is 0x7F, or starts with one of these bytes.
        text.utf8.contains { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 || $0 == 0xD8 || $0 == 0xE2 }
    }

    private static func terminalSpelled(_ scalar: Unicode.Scalar, _ spelling: TerminalSpelling) -> String? {
        isTerminalUnsafe(scalar) ? spelled(scalar, spelling) : nil
    }

    private static func startsLikeCommand(_ text: String) -> Bool {
        let trimmed = text.drop { $0 == " " || $0 == "\t" }
        return trimmed.hasPrefix("::") || trimmed.hasPrefix("##") || trimmed.hasPrefix("%%")
    }

    private static func spelled(_ scalar: Unicode.Scalar, _ spelling: TerminalSpelling) -> String {
        switch spelling {
        case .visible: visibleCode(scalar)
        case .json: jsonHexEscape(scalar)
        }
    }
}
