import BindText
import Testing

@Suite("Escape.markdown: trace text inert in a pull-request comment")
struct EscapeMarkdownTests {
    @Test("links, images, emphasis, code and table cells do not form")
    func markup() {
        #expect(Escape.markdown("[x](https://e.example)") == "\\[x\\]\\(https://e.example\\)")
        #expect(Escape.markdown("![i](a.png)") == "!\\[i\\]\\(a.png\\)")
        #expect(Escape.markdown("*a* _b_ `c` ~d~ a|b") == "\\*a\\* \\_b\\_ \\`c\\` \\~d\\~ a\\|b")
        #expect(Escape.markdown("# h") == "\\# h")
        #expect(Escape.markdown("a\\b") == "a\\\\b")
    }

    @Test("HTML is text and @mentions ping no one")
    func htmlAndMentions() {
        #expect(Escape.markdown("<script>&") == "&lt;script&gt;&amp;")
        #expect(Escape.markdown("@team") == "&#64;team")
    }

    @Test("one line stays one line; controls and bidirectional overrides are visible")
    func lines() {
        #expect(Escape.markdown("a\nb\r\tc") == "a b  c")
        #expect(Escape.markdown("a\u{1B}[31m") == "a\u{FFFD}\\[31m")
        #expect(Escape.markdown("\u{202E}abc") == "\\u{202E}abc")
    }

    @Test("file names and plain words stay readable")
    func readable() {
        #expect(Escape.markdown("App/Form.swift:12 'email' (String)") == "App/Form.swift:12 'email' \\(String\\)")
    }
}
