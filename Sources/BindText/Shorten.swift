/// Text shortened for people: cut at a character boundary, never inside a grapheme cluster, with a
/// mark that says so.
///
/// The one definition of shortening, for every place that shows untrusted text (a trace's labels,
/// type names and values can be megabytes long): the analysis's messages (`Narrator.shortened`),
/// the picture's previews and every Graphviz label (`GraphLabel`). A character keeps at most
/// ``scalarsPerCharacter`` Unicode scalars, so a "zalgo" pile of combining marks on one character is
/// bounded too; that cut alone is not marked (the marks left out add nothing legible).
///
/// ```swift
/// Shorten.text("Hello, world", to: 6)                    // "Hello…"
/// Shorten.text("first\nsecond", to: 80, lines: .first)  // "first…"
/// Shorten.text(String(repeating: "a", count: 300), to: 200, mark: .ellipsisAndBytesLeftOut)
/// // 200 "a", then "… (100 more bytes)"
/// ```
package enum Shorten {
    /// What a shortened text ends with.
    package enum Mark: Sendable {
        /// `…`, counted in the limit: the result has at most `limit` characters.
        case ellipsis
        /// The first `limit` characters, then `… (N more bytes)`, N in UTF-8: for a message that
        /// quotes the text and should say how much of it there was.
        case ellipsisAndBytesLeftOut
    }

    /// Which lines of the text are shown.
    package enum Lines: Sendable {
        /// Every line, its line breaks kept (counted as characters; `\r\n` is one).
        case all
        /// The first line that holds text: leading line breaks are skipped, and anything after the
        /// line is left out (and marked as a cut). A line break is any `Character.isNewline`.
        case first
    }

    /// The Unicode scalars one character keeps unless the caller says otherwise: more than any base
    /// with its accents, or the longest emoji sequence (10), needs.
    package static let scalarsPerCharacter = 16

    /// `text` shortened to `limit` characters.
    ///
    /// A text of at most `limit` characters (and, with ``Lines/first``, one line) is kept whole, but
    /// for characters of more than `scalarsPerCharacter` scalars, which keep their first ones.
    ///
    /// - Parameters:
    ///   - text: Any text; untrusted text is fine (the work is linear in what is kept, plus the
    ///     characters counted to find the cut).
    ///   - limit: The most characters shown, at least 1 (see ``Mark`` for whether the mark counts).
    ///   - lines: Whether every line is shown or only the first.
    ///   - mark: What ends a shortened text.
    ///   - scalarsPerCharacter: The most Unicode scalars kept in one character.
    /// - Complexity: O(*n*) in the characters kept and counted, never more than `limit` + 1 of them
    ///   (with ``Lines/first``, also the leading line breaks and the line's end).
    package static func text(
        _ text: String, to limit: Int, lines: Lines = .all, mark: Mark = .ellipsis,
        scalarsPerCharacter: Int = scalarsPerCharacter
    ) -> String {
        precondition(limit >= 1, "a shortened text shows at least one character")
        var shown = text[...]
        var linesLeftOut = false
        if lines == .first {
            let start = text.firstIndex { !$0.isNewline } ?? text.endIndex
            let end = text[start...].firstIndex(where: \.isNewline) ?? text.endIndex
            shown = text[start..<end]
            linesLeftOut = start != text.startIndex || end != text.endIndex
        }

        // One walk over at most `limit + 1` characters: whether the text is too long, where a cut
        // would fall (after `kept` characters) and whether any character has too many scalars.
        let kept = mark == .ellipsis ? limit - 1 : limit
        var count = 0
        var cutOffset = 0  // in UTF-8 from `shown`'s start; meaningful once `count` has passed `kept`
        var offset = 0
        var tooLong = false
        var oversized = false
        for character in shown {
            if count == kept { cutOffset = offset }
            count += 1
            if count > limit {
                tooLong = true
                break
            }
            // A scalar is at least one byte: a short character cannot have too many.
            let bytes = character.utf8.count
            if bytes > scalarsPerCharacter && character.unicodeScalars.count > scalarsPerCharacter { oversized = true }
            offset += bytes
        }
        if count <= kept { cutOffset = offset }

        let isCut = tooLong || linesLeftOut
        guard isCut || oversized else { return lines == .all ? text : String(shown) }
        if isCut {
            shown = shown[..<shown.utf8.index(shown.startIndex, offsetBy: cutOffset)]
        }
        let result = oversized ? capped(shown, to: scalarsPerCharacter) : String(shown)
        guard isCut else { return result }
        switch mark {
        case .ellipsis: return result + "…"
        case .ellipsisAndBytesLeftOut: return result + "… (\(text.utf8.count - result.utf8.count) more bytes)"
        }
    }

    /// `text` with every character cut to its first `maximum` scalars.
    private static func capped(_ text: Substring, to maximum: Int) -> String {
        var result = ""
        for character in text {
            if character.utf8.count > maximum && character.unicodeScalars.count > maximum {
                result.unicodeScalars.append(contentsOf: character.unicodeScalars.prefix(maximum))
            } else {
                result.append(character)
            }
        }
        return result
    }
}
