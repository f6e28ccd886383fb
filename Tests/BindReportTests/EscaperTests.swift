import Testing

@testable import BindReport

@Suite("one escaper per output context: HTML text and attributes, XML")
struct EscaperTests {
    @Test("HTML text: markup characters become entities, text stays text")
    func htmlText() {
        #expect(
            HTMLText.escape("<script>alert(1)</script> & more") == "&lt;script&gt;alert(1)&lt;/script&gt; &amp; more")
        #expect(HTMLText.escape("café ✓ 'title'") == "café ✓ &#39;title&#39;")
    }

    @Test("HTML attributes: both quote characters are escaped, so a value cannot close its attribute")
    func htmlAttribute() {
        var builder = HTMLBuilder()
        builder.open("span", ["title": #"x" onmouseover="alert(1)" y='z'"#])
        #expect(builder.output == #"<span title="x&quot; onmouseover=&quot;alert(1)&quot; y=&#39;z&#39;">"#)
    }

    @Test("HTML: control characters HTML forbids become U+FFFD; tab and newline stay")
    func htmlControls() {
        #expect(HTMLText.escape("a\u{1B}[31m\u{0}b\tc\nd\u{7F}") == "a\u{FFFD}[31m\u{FFFD}b\tc\nd\u{FFFD}")
    }

    @Test("XML: entities for markup and quotes, references for line breaks, U+FFFD for what XML 1.0 forbids")
    func xml() {
        #expect(XMLText.escape(#"<a b="c">&'"#) == "&lt;a b=&quot;c&quot;&gt;&amp;&apos;")
        #expect(XMLText.escape("one\ntwo\r\tthree") == "one&#10;two&#13;&#9;three")
        #expect(XMLText.escape("bell\u{7} nul\u{0} \u{FFFE}") == "bell\u{FFFD} nul\u{FFFD} \u{FFFD}")
    }
}
