import BindText
import Foundation
import Testing

@Suite("Escape.jsonString: a JSON string literal that stays inert wherever it is shown")
struct EscapeJSONTests {
    @Test("quotes, backslashes and control characters are escaped per RFC 8259")
    func rfc8259() {
        #expect(Escape.jsonString("\"\\\n\t\r\u{1}\u{0}") == #""\"\\\n\t\r\u0001\u0000""#)
    }

    @Test("HTML-active characters are escaped, so the JSON can be pasted into a page")
    func htmlActive() {
        #expect(Escape.jsonString("</script><a&b>") == #""\u003c/script\u003e\u003ca\u0026b\u003e""#)
    }

    @Test("terminal escapes, C1 controls, bidi overrides and line separators are escaped")
    func terminalActive() {
        #expect(
            Escape.jsonString("x\u{1B}[2J\u{85}\u{202E}y\u{2028}\u{7F}") == #""x\u001b[2J\u0085\u202ey\u2028\u007f""#)
    }

    @Test("ordinary non-ASCII text, emoji and an empty string pass through")
    func plain() {
        #expect(Escape.jsonString("café ✓ 👩‍💻") == "\"café ✓ 👩‍💻\"")
        #expect(Escape.jsonString("") == "\"\"")
    }

    @Test("given any hostile string, when escaped, then a JSON parser reads back exactly that string")
    func roundTrip() throws {
        let hostile = "\"}]\u{0}\\u0000\n\u{1B}]8;;evil\u{7}<svg onload=x>\u{202E}\u{2029}\u{FFFE}é\u{301}<\u{301}"
        let data = Data(("[" + Escape.jsonString(hostile) + "]").utf8)
        let parsed = try JSONSerialization.jsonObject(with: data) as? [String]
        #expect(parsed == [hostile])
    }

    @Test("appending into a buffer writes the same literal after what is there")
    func into() {
        var buffer = "{\"a\":"
        Escape.jsonString("<", into: &buffer)
        #expect(buffer == #"{"a":"\u003c""#)
    }
}
