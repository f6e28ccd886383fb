import BindText
import Testing

@Suite("Escape.htmlText and Escape.htmlAttribute: trace text stays text in the HTML report")
struct EscapeHTMLTests {
    @Test("markup characters in text become entities, so text never opens a tag")
    func textMarkup() {
        #expect(
            Escape.htmlText("<script>alert(1)</script> & more")
                == "&lt;script&gt;alert(1)&lt;/script&gt; &amp; more")
        #expect(Escape.htmlText("&lt;already&gt;") == "&amp;lt;already&amp;gt;")
    }

    @Test("a markup character followed by a combining mark is still escaped")
    func combiningMark() {
        #expect(Escape.htmlText("<\u{301}img>") == "&lt;\u{301}img&gt;")
    }

    @Test("control characters HTML forbids become U+FFFD; tab, newline and carriage return stay")
    func textControls() {
        #expect(
            Escape.htmlText("a\u{1B}[31m\u{0}b\tc\nd\r\u{7F}\u{85}\u{FFFF}")
                == "a\u{FFFD}[31m\u{FFFD}b\tc\nd\r\u{FFFD}\u{FFFD}\u{FFFD}")
    }

    @Test("bidirectional controls show as their code in text and attributes, so no label reads reversed")
    func bidirectionalControls() {
        // Given a label that an override would display as "exe.png"
        let label = "\u{202E}gnp.exe \u{2066}x\u{2069} \u{200F}"
        // Then the report shows the codes where the controls were, and keeps none of them
        let expected = #"\u{202E}gnp.exe \u{2066}x\u{2069} \u{200F}"#
        #expect(Escape.htmlText(label) == expected)
        #expect(Escape.htmlAttribute(label) == expected)
    }

    @Test("ordinary non-ASCII text passes through; quotes in text become references")
    func textPlain() {
        #expect(Escape.htmlText("café ✓ \"it's\"") == "café ✓ &quot;it&#39;s&quot;")
    }

    @Test("an attribute value cannot close its attribute, whichever quote surrounds it")
    func attributeQuotes() {
        let value = Escape.htmlAttribute(#"x" onmouseover="alert(1)" y='z'"#)
        #expect(value == "x&quot; onmouseover=&quot;alert(1)&quot; y=&#39;z&#39;")
        #expect(!value.contains("\"") && !value.contains("'"))
    }

    @Test("an attribute value escapes markup and controls like text, and line breaks as references")
    func attributeMarkup() {
        #expect(Escape.htmlAttribute("<a>&\u{0}") == "&lt;a&gt;&amp;\u{FFFD}")
        #expect(Escape.htmlAttribute("one\ntwo\r\tthree") == "one&#10;two&#13;&#9;three")
    }
}
