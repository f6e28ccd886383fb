import Testing

@_spi(Harness) @testable import BindGraph

@Suite("Label sanitising and escaping")
struct GraphLabelTests {
    @Test("an HTML-like label is a bold title over smaller detail lines")
    func htmlShape() {
        let html = GraphLabel.html(title: "a<b", lines: ["one", "two"], pointSize: 12, detailPointSize: 10)
        #expect(html == #"<FONT POINT-SIZE="12"><B>a&lt;b</B><BR/><FONT POINT-SIZE="10">one<BR/>two</FONT></FONT>"#)
    }

    @Test("line breaks of every kind split a label into lines")
    func lineBreaks() {
        #expect(GraphLabel.lines("a\nb\r\nc\rd\u{2028}e") == ["a", "b", "c", "d", "e"])
    }

    @Test("control characters are shown as control pictures and a tab as a space")
    func controlCharacters() {
        #expect(GraphLabel.lines("nul\u{0}esc\u{1B}bell\u{7}del\u{7F}\ttab") == ["nul␀esc␛bell␇del␡ tab"])
    }

    @Test("C1 controls, XML noncharacters and bidi overrides become the replacement character")
    func replacedCharacters() {
        #expect(GraphLabel.singleLine("a\u{85}b\u{FFFE}c\u{202E}d\u{2066}e") == "a�b�c�d�e")
    }

    @Test("text decoded from invalid UTF-8 keeps its replacement characters")
    func invalidUTF8() {
        let decoded = String(decoding: [0x61, 0xFF, 0xFE, 0x62] as [UInt8], as: UTF8.self)
        #expect(GraphLabel.singleLine(decoded) == "a\u{FFFD}\u{FFFD}b")
    }

    @Test("a long line is cut at a character boundary with an ellipsis")
    func longLine() {
        let line = String(repeating: "é", count: 200)
        let cut = GraphLabel.lines(line)
        #expect(cut.count == 1)
        #expect(cut[0].count == 80)
        #expect(cut[0].hasSuffix("…"))
        #expect(cut[0].dropLast().allSatisfy { $0 == "é" })
    }

    @Test("a line exactly at the limit is not cut")
    func lineAtLimit() {
        let line = String(repeating: "x", count: 80)
        #expect(GraphLabel.lines(line) == [line])
    }

    @Test("emoji sequences are never split")
    func emoji() {
        let family = "👨‍👩‍👧‍👦"
        let cut = GraphLabel.lines(String(repeating: family, count: 100))[0]
        #expect(cut.dropLast().allSatisfy { $0 == Character(family) })
    }

    @Test("a character piled with combining marks keeps only a few of them")
    func zalgo() {
        let zalgo = "a" + String(repeating: "\u{0301}", count: 10_000)
        let line = GraphLabel.singleLine(zalgo)
        #expect(line.count == 1)
        #expect(line.unicodeScalars.count == GraphLabel.Limits.singleLine.maxScalarsPerCharacter)
    }

    @Test("too many lines end in a line saying how many were left out")
    func tooManyLines() {
        let text = (1...20).map(String.init).joined(separator: "\n")
        let lines = GraphLabel.lines(text)
        #expect(lines.count == GraphLabel.Limits.standard.maxLines)
        #expect(lines.last == "… 13 more lines")
    }

    @Test("a 10,000-character label is cut to a few short lines")
    func hugeLabel() {
        let lines = GraphLabel.lines(String(repeating: "abcdefghij", count: 1_000))
        #expect(lines.count == 1)
        #expect(lines[0].count == 80)
    }

    @Test("identifiers are one line without backslashes")
    func identifiers() {
        #expect(GraphLabel.identifier("out\\put\n7") == "out⧵put 7")
    }

    @Test("tooltips keep their lines but show backslashes as a look-alike")
    func tooltips() {
        #expect(GraphLabel.plainAttribute("a\\N\nb") == "a⧵N\\nb")
    }
}

@Suite("Graphviz messages")
struct GraphvizMessagesTests {
    @Test("pieces from the callback become one error or warning per message")
    func parsing() {
        let pieces = [
            "Error", ": ", "Layout type: \"x\" not recognized.\n",
            "Warning", ": ", "red is not a known color.\n",
            "Error", ": ", "not well-formed in line 1 \n", "... <B>bad ...\n", "in label of node c\n",
        ]
        let messages = GraphvizMessages(parsing: pieces.joined())
        #expect(
            messages.errors == [
                "Layout type: \"x\" not recognized.", "not well-formed in line 1 ... <B>bad ... in label of node c",
            ])
        #expect(messages.warnings == ["red is not a known color."])
    }
}
