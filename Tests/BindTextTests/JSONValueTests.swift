import BindText
import Testing

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

    @Test("string values and member names go through the JSON string escaper")
    func escapedStrings() {
        let value: JSONValue = .object([("k\"<", .string("v\u{1B}\n"))])
        #expect(value.compactText == #"{"k\"\u003c":"v\u001b\n"}"#)
    }
}
