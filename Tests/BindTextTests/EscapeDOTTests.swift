import BindText
import Testing

@Suite("Escape.dotLabel and Escape.dotHTMLLabel: Graphviz draws trace text literally")
struct EscapeDOTTests {
    @Test("ampersand, angle brackets and double quotes become entities in HTML-like labels")
    func htmlEntities() {
        #expect(
            Escape.dotHTMLLabel(#"<script>alert("x") & 'y'</script>"#)
                == "&lt;script&gt;alert(&quot;x&quot;) &amp; 'y'&lt;/script&gt;")
    }

    @Test("backslashes are doubled in HTML-like labels, which Graphviz would expand")
    func backslashesInHTML() {
        #expect(Escape.dotHTMLLabel(#"back\slash \N end\"#) == #"back\\slash \\N end\\"#)
    }

    @Test("a character combined with a mark is escaped by its scalars in HTML-like labels")
    func combiningInHTML() {
        #expect(Escape.dotHTMLLabel("<\u{301}&\u{301}\\\u{301}") == "&lt;\u{301}&amp;\u{301}\\\\\u{301}")
    }

    @Test("plain labels and node names show every backslash as a look-alike, even one under a mark")
    func plainBackslashes() {
        #expect(Escape.dotLabel(#"a\N\G\"#) == "a⧵N⧵G⧵")
        #expect(Escape.dotLabel("x\\\u{301}") == "x⧵\u{301}")
        #expect(!Escape.dotLabel("\\\\\\").contains("\\"))
    }

    @Test("plain labels leave other text alone")
    func plainText() {
        #expect(Escape.dotLabel("map → String <3 & \"q\"") == "map → String <3 & \"q\"")
    }
}
