import BindText
import Foundation
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

@Suite("Escape.xml: trace text in JUnit XML stays well-formed text")
struct EscapeXMLTests {
    @Test("markup characters and both quotes become entities")
    func markup() {
        #expect(Escape.xml(#"<a b="c">&'"#) == "&lt;a b=&quot;c&quot;&gt;&amp;&apos;")
    }

    @Test("line breaks and tabs become references, so attribute values keep them")
    func lineBreaks() {
        #expect(Escape.xml("one\ntwo\r\tthree") == "one&#10;two&#13;&#9;three")
    }

    @Test("bidirectional controls show as their code, so a JUnit viewer shows no reversed name")
    func bidirectionalControls() {
        #expect(Escape.xml("\u{202E}gnp.exe\u{061C}") == #"\u{202E}gnp.exe\u{61C}"#)
    }

    @Test("characters XML 1.0 forbids become U+FFFD")
    func forbidden() {
        #expect(
            Escape.xml("bell\u{7} nul\u{0} \u{FFFE}\u{FFFF}\u{1B}")
                == "bell\u{FFFD} nul\u{FFFD} \u{FFFD}\u{FFFD}\u{FFFD}")
    }

    @Test("given hostile text in an attribute and in content, when parsed, then the parser reads it back")
    func parses() throws {
        let hostile = "]]><!--\"'&amp;<x/>\n\t\u{1B}é\u{301}"
        let document = "<r a=\"\(Escape.xml(hostile))\">\(Escape.xml(hostile))</r>"
        let parsed = try XMLDocument(xmlString: document)
        let root = try #require(parsed.rootElement())
        let expected = hostile.replacingOccurrences(of: "\u{1B}", with: "\u{FFFD}")
        #expect(root.attribute(forName: "a")?.stringValue == expected)
        #expect(root.stringValue == expected)
    }
}
