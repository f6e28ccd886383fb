import BindText
import Testing

@Suite("Shorten.text: untrusted text cut to a length people can read, at a character boundary")
struct ShortenTests {
    @Test("a text within the limit is kept whole, a longer one ends in an ellipsis within the limit")
    func ellipsis() {
        #expect(Shorten.text("Hello", to: 5) == "Hello")
        #expect(Shorten.text("Hello, world", to: 6) == "Hello…")
        #expect(Shorten.text("Hello, world", to: 1) == "…")
        #expect(Shorten.text("", to: 3) == "")
    }

    @Test("a quoted text keeps the limit's characters and says how many bytes were left out")
    func bytesLeftOut() {
        let long = String(repeating: "a", count: 300)
        #expect(
            Shorten.text(long, to: 200, mark: .ellipsisAndBytesLeftOut)
                == String(repeating: "a", count: 200) + "… (100 more bytes)")
        #expect(Shorten.text("short", to: 200, mark: .ellipsisAndBytesLeftOut) == "short")
        // Bytes, not characters: each "é" left out is two.
        #expect(Shorten.text("abééé", to: 2, mark: .ellipsisAndBytesLeftOut) == "ab… (6 more bytes)")
    }

    @Test("grapheme clusters are never split: an emoji sequence or an accented letter is one character")
    func graphemeClusters() {
        let family = "👨‍👩‍👧‍👦"
        let cut = Shorten.text(String(repeating: family, count: 10), to: 4)
        #expect(cut == family + family + family + "…")
        // "e" + U+0301 (combining acute) is one character, as is the precomposed "é".
        #expect(Shorten.text("e\u{301}e\u{301}e\u{301}", to: 2) == "e\u{301}…")
        // A flag is two regional indicators: never half of one.
        #expect(Shorten.text("🇫🇷🇩🇪🇯🇵", to: 2) == "🇫🇷…")
    }

    @Test("a character piled with combining marks keeps only its first scalars")
    func zalgo() {
        let zalgo = "a" + String(repeating: "\u{301}", count: 10_000)
        let kept = Shorten.text(zalgo + "b", to: 80)
        #expect(kept.count == 2)
        #expect(kept.unicodeScalars.count == Shorten.scalarsPerCharacter + 1)
        // Cutting scalars alone adds no mark; the bytes note counts what was really left out.
        #expect(!kept.contains("…"))
        let quoted = Shorten.text(zalgo + String(repeating: "b", count: 10), to: 5, mark: .ellipsisAndBytesLeftOut)
        #expect(quoted == "a" + String(repeating: "\u{301}", count: 15) + "bbbb… (\(9_985 * 2 + 6) more bytes)")
        #expect(Shorten.text(zalgo, to: 80, scalarsPerCharacter: 3) == "a\u{301}\u{301}")
    }

    @Test("every line is kept by default, a line break counting as one character (CR LF too)")
    func allLines() {
        #expect(Shorten.text("a\nb", to: 3) == "a\nb")
        #expect(Shorten.text("a\r\nb", to: 3) == "a\r\nb")
        #expect(Shorten.text("ab\ncd", to: 4) == "ab\n…")
    }

    @Test("the first line only: what follows a line break is left out and marked, within the limit")
    func firstLine() {
        #expect(Shorten.text("first\nsecond", to: 80, lines: .first) == "first…")
        #expect(Shorten.text("one line", to: 80, lines: .first) == "one line")
        #expect(Shorten.text("abcd\nmore", to: 4, lines: .first) == "abc…")
        #expect(Shorten.text("a long first line\nmore", to: 6, lines: .first) == "a lon…")
        // Every kind of line break ends the line: CR LF, CR, U+2028, U+0085.
        for lineBreak in ["\r\n", "\r", "\u{2028}", "\u{85}"] {
            #expect(Shorten.text("x" + lineBreak + "y", to: 80, lines: .first) == "x…")
        }
    }

    @Test("the first line with text: leading line breaks are skipped, and a trailing one still marks a cut")
    func firstLineWithText() {
        #expect(Shorten.text("\n\nvalue", to: 80, lines: .first) == "value…")
        #expect(Shorten.text("value\n", to: 80, lines: .first) == "value…")
        #expect(Shorten.text("\n", to: 80, lines: .first) == "…")
        #expect(Shorten.text("", to: 80, lines: .first) == "")
    }

    @Test("a megabyte of text costs what is kept: the result stays within the limit")
    func huge() {
        let huge = String(repeating: "x", count: 1_000_000)
        #expect(Shorten.text(huge, to: 200).count == 200)
        let quoted = Shorten.text(huge, to: 200, mark: .ellipsisAndBytesLeftOut)
        #expect(quoted == String(huge.prefix(200)) + "… (999800 more bytes)")
    }
}
