extension Escape {
    /// `text` safe as XML 1.0 element content or a double- or single-quoted attribute value.
    ///
    /// `& < > " '` become entities; line feed, carriage return and tab become character references
    /// (an attribute value would otherwise normalise them to spaces); the characters XML 1.0 forbids
    /// (the other C0 controls, U+FFFE, U+FFFF) become U+FFFD, since not even a reference may carry them;
    /// bidirectional formatting characters show as their code (`\u{202E}`), as in a terminal.
    package static func xml(_ text: String) -> String {
        replacing(text) { scalar in
            switch scalar.value {
            case 0x22: "&quot;"
            case 0x27: "&apos;"
            case 0x0A: "&#10;"
            case 0x0D: "&#13;"
            case 0x09: "&#9;"
            case 0x00...0x1F, 0xFFFE, 0xFFFF: replacementCharacter
            default: isBidirectionalControl(scalar) ? visibleCode(scalar) : markupEntity(scalar)
            }
        }
    }
}
