import Foundation
import Testing

@_spi(Harness) @testable import BindGraph

@Suite("Hostile labels from trace files")
struct HostileLabelTests {
    let renderer = GraphvizRenderer()

    static let hostile = [
        "<script>alert(1)</script>",
        #""quoted" 'single'"#,
        #"back\slash \N \G \E \T \H \L \l \n end\"#,
        "line one\nline two\r\nline three",
        String(repeating: "0123456789", count: 1_000),
        "bad \u{FFFD}\u{FFFD} bytes",
        "javascript:alert(document.cookie)",
        #"x" onload="alert(1)"#,
        "&lt;already escaped&gt; &amp; &#60;",
        "nul \u{0} bell \u{7} esc \u{1B}[31m del \u{7F} c1 \u{85}",
        "rtl \u{202E}txet desrever",
        "]]><!-- -->",
        // A combining mark makes `<`, `&` or `\` part of one Character with it.
        "<\u{301}b &\u{301} \\\u{301}N",
    ]

    @Test("hostile text renders to well-formed SVG without markup of its own", arguments: hostile)
    func hostileSVG(text: String) throws {
        // Given a node, an edge label and a tooltip carrying the text
        let document = Fixtures.single(label: text, tooltip: text)

        // When drawn as SVG
        let rendered = try renderer.render(document, format: .svg)
        let svgText = try #require(rendered.text)
        let svg = SVGInspection(rendered.data)

        // Then it parses, has no script or event handler, and still shows both nodes
        #expect(svg.parsed, "\(svg.parseError ?? "")")
        #expect(!svgText.contains("<script"))
        #expect(!svg.elementNames.contains("script"))
        #expect(!svgText.contains("onload=\""))
        #expect(!svgText.contains("xlink:href"))
        #expect(svg.nodes.count == 2)
        #expect(rendered.warnings.isEmpty, "\(rendered.warnings)")
        let hostileNode = try #require(svg.node(titled: "hostile"))
        #expect(!hostileNode.texts.isEmpty)
        #expect(hostileNode.texts.allSatisfy { $0.count <= 80 })
    }

    @Test("hostile text renders in every format", arguments: [GraphFormat.dot, .png, .pdf])
    func hostileFormats(format: GraphFormat) throws {
        for text in Self.hostile {
            let rendered = try renderer.render(Fixtures.single(label: text, tooltip: text), format: format)
            #expect(!rendered.data.isEmpty)
        }
    }

    @Test("markup in a label is shown as text")
    func markupShownAsText() throws {
        let svg = SVGInspection(try renderer.render(Fixtures.single(label: "<script>alert(1)</script>")).data)
        #expect(svg.node(titled: "hostile")?.texts.first == "<script>alert(1)</script>")
        #expect(svg.edges.first?.texts == ["<script>alert(1)</script>"])
    }

    @Test("backslash escapes are shown literally, not expanded to node or graph names")
    func backslashesLiteral() throws {
        let svg = SVGInspection(try renderer.render(Fixtures.single(label: #"back\slash \N \G"#)).data)
        #expect(svg.node(titled: "hostile")?.texts.first == #"back\slash \N \G"#)
    }

    @Test("quotes are shown as typed")
    func quotes() throws {
        let svg = SVGInspection(try renderer.render(Fixtures.single(label: #""quoted" onload="x""#)).data)
        #expect(svg.node(titled: "hostile")?.texts.first == #""quoted" onload="x""#)
    }

    @Test("newlines in a detail line become separate lines of text")
    func newlines() throws {
        let document = GraphDocument(nodes: [.init(id: "n", title: "t", lines: ["one\ntwo", "three"])])
        let svg = SVGInspection(try renderer.render(document).data)
        #expect(svg.node(titled: "n")?.texts == ["t", "one", "two", "three"])
    }

    @Test("a 10,000-character label is cut to 80 characters with an ellipsis")
    func longLabel() throws {
        let svg = SVGInspection(try renderer.render(Fixtures.single(label: String(repeating: "x", count: 10_000))).data)
        let title = try #require(svg.node(titled: "hostile")?.texts.first)
        #expect(title == String(repeating: "x", count: 79) + "…")
    }

    @Test("replacement characters from invalid UTF-8 are drawn")
    func replacementCharacter() throws {
        let text = String(decoding: [0x6F, 0x6B, 0xC3, 0x28, 0xFF] as [UInt8], as: UTF8.self)
        let svg = SVGInspection(try renderer.render(Fixtures.single(label: text)).data)
        #expect(svg.node(titled: "hostile")?.texts.first == "ok\u{FFFD}(\u{FFFD}")
    }

    @Test("hostile node ids become safe titles and the edges still connect")
    func hostileIDs() throws {
        let ids = ["<script>", "a\\", "q\"uote", "nl\nid", "\u{0}"]
        var document = GraphDocument(nodes: ids.map { .init(id: $0) })
        document.edges = zip(ids, ids.dropFirst()).map { .init(from: $0, to: $1) }
        for format in [GraphFormat.svg, .dot] {
            let rendered = try renderer.render(document, format: format)
            #expect(rendered.warnings.isEmpty)
            if format == .svg {
                let svg = SVGInspection(rendered.data)
                #expect(svg.parsed)
                #expect(svg.nodes.map(\.title).sorted() == ["<script>", "a⧵", "nl id", "q\"uote", "␀"].sorted())
                #expect(svg.edges.count == 4)
            }
        }
    }

    @Test("tooltips show hostile text without expanding escapes")
    func tooltips() throws {
        let svg = SVGInspection(try renderer.render(Fixtures.single(label: "x", tooltip: #"<b>"t"</b> \N"#)).data)
        #expect(svg.node(titled: "hostile")?.tooltips == [#"<b>"t"</b> ⧵N"#])
    }
}
