import Testing

@testable import BindOutput

@Suite("JSONValue: the one JSON writer")
struct JSONValueTests {
    @Test("objects keep member order; compact and pretty forms hold the same values")
    func order() {
        let value: JSONValue = .object([
            ("z", .int(-1)), ("a", .array([.uint(2), .bool(true), .null])), ("e", .object([])), ("l", .array([])),
        ])
        #expect(value.compactText == #"{"z":-1,"a":[2,true,null],"e":{},"l":[]}"#)
        #expect(
            value.prettyText
                == "{\n  \"z\": -1,\n  \"a\": [\n    2,\n    true,\n    null\n  ],\n  \"e\": {},\n  \"l\": []\n}")
    }

    @Test("strings escape quotes, backslashes, controls, HTML-active and bidi characters")
    func strings() {
        #expect(JSONValue.quote("\"\\\n\t\u{1}") == #""\"\\\n\t\u0001""#)
        #expect(JSONValue.quote("<a&b>") == #""\u003ca\u0026b\u003e""#)
        #expect(JSONValue.quote("x\u{202E}y\u{2028}") == #""x\u202ey\u2028""#)
        #expect(JSONValue.quote("café ✓") == "\"café ✓\"")
    }
}
