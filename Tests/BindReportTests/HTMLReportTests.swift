import BindAnalysis
import BindText
import Foundation
import Testing

@_spi(Harness) @testable import BindReport

@Suite("index.html")
struct HTMLReportTests {
    let html = ReportWriter.html(Fixtures.hostileContent())

    @Test("hostile labels appear only escaped")
    func hostileTextIsEscaped() {
        #expect(!html.contains("alert(1)</script>"))
        #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(!html.contains(Hostile.handler))
        #expect(html.contains("&quot; onload=&quot;alert(2)"))
        #expect(!html.contains("<b>bold"))
    }

    @Test("the only script element is ours, and no tag carries an event handler")
    func onlyOurScript() throws {
        #expect(html.components(separatedBy: "<script").count == 2)
        let handler = try Regex(#"<[^>]*\son[a-z]+\s*="#).ignoresCase()
        #expect(html.firstMatch(of: handler) == nil)
        #expect(!html.lowercased().contains("href=\"javascript:"))
        #expect(!html.contains(" style=\""), "inline style attributes would need 'unsafe-inline'")
    }

    @Test("the Content-Security-Policy allows exactly the inline script and style, by hash")
    func contentSecurityPolicy() throws {
        let policy = try #require(html.firstMatch(of: #/http-equiv="Content-Security-Policy" content="([^"]*)"/#)?.1)
        let script = try #require(html.firstMatch(of: #/<script>([\s\S]*?)</script>/#)?.1)
        let style = try #require(html.firstMatch(of: #/<style>([\s\S]*?)</style>/#)?.1)
        #expect(policy.contains("default-src 'none'"))
        #expect(policy.contains("script-src \(SHA256.cspSource(for: String(script)));"))
        #expect(policy.contains("style-src \(SHA256.cspSource(for: String(style)));"))
        #expect(policy.contains("img-src data:"))
        #expect(!policy.contains("unsafe"))
        // The policy must come before anything it governs.
        #expect(html.range(of: "Content-Security-Policy")!.lowerBound < html.range(of: "<style>")!.lowerBound)
    }

    @Test("the page's style sheet and script are HTML/report.css and HTML/report.js, and the policy hashes those files")
    func assetsAreTheFiles() throws {
        // Read from the source tree, independently of the plugin that embedded them.
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/BindReport/HTML")
        let style = try String(contentsOf: folder.appendingPathComponent("report.css"), encoding: .utf8)
        let script = try String(contentsOf: folder.appendingPathComponent("report.js"), encoding: .utf8)

        #expect(HTMLAssets.style == style)
        #expect(HTMLAssets.script == script)
        #expect(html.contains("<style>\(style)</style>"))
        #expect(html.contains("<script>\(script)</script>"))
        let policy = try #require(html.firstMatch(of: #/http-equiv="Content-Security-Policy" content="([^"]*)"/#)?.1)
        #expect(policy.contains("script-src \(SHA256.cspSource(for: script));"))
        #expect(policy.contains("style-src \(SHA256.cspSource(for: style));"))
    }

    @Test("the page loads nothing from the network")
    func selfContained() {
        #expect(!html.contains("src=\"http"))
        #expect(!html.contains("href=\"http"))
        #expect(!html.contains("@import"))
        #expect(!html.contains("url("))
    }

    @Test("the graph is embedded as a data: image whose SVG has no script or handlers")
    func graphIsSanitisedImage() throws {
        let encoded = try #require(html.firstMatch(of: #/src="data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)"/#)?.1)
        let svg = try #require(Data(base64Encoded: String(encoded)).flatMap { String(data: $0, encoding: .utf8) })
        #expect(svg.contains("<ellipse"))
        #expect(svg.contains("isValid"))
        #expect(!svg.contains("<script"))
        #expect(!svg.contains("alert("))
        #expect(!svg.contains("javascript:"))
    }

    @Test("findings show kind, site, related sites and the kind's explanation")
    func findingsAreShown() {
        let plain = ReportWriter.html(
            ReportContent(title: "t", traceFile: "f", findings: [Fixtures.finding(.duplicateBinding)]))
        #expect(plain.contains("duplicate-binding"))
        #expect(plain.contains("App/Cell.swift:42"))
        #expect(plain.contains("App/Model.swift:7"))
        #expect(plain.contains(Escape.htmlText(Finding.Kind.duplicateBinding.explanation)))
    }

    @Test("a busy timeline row is bucketed into at most 20 marbles and says so")
    func busyRowsAreBucketed() {
        let updates = (0..<5_000).map { TimelineRow.Update(time: UInt64($0) * 1_000, sequence: UInt64($0)) }
        let content = ReportContent(
            title: "t", traceFile: "f", timeline: [TimelineRow(name: "busy", kind: "map", updates: updates)])
        let html = ReportWriter.html(content)
        let lane = html.components(separatedBy: "<td class=\"lane\">").last ?? ""
        let marbles = lane.components(separatedBy: "<circle").count - 1
        #expect(marbles >= 1 && marbles <= 20)
        #expect(html.contains("grouped in time buckets"))
    }

    @Test("SVG cleaning drops scripts, foreign objects, handlers and script URLs, and keeps drawing")
    func svgCleaner() {
        let dirty = """
            <svg onload='x()'><g><script type="text/javascript"><![CDATA[ if (a < b) alert(1) ]]></script>\
            <foreignObject><div onclick="x()">hi</div></foreignObject><a href="java\tscript:alert(1)">\
            <text x="1">ok &lt; fine</text></a><a xlink:href="#node1"><circle r="2"/></a></g></svg>
            """
        let clean = SVGCleaner.clean(dirty)
        #expect(
            clean
                == "<svg><g><a><text x=\"1\">ok &lt; fine</text></a><a xlink:href=\"#node1\"><circle r=\"2\"/></a></g></svg>"
        )
    }

    @Test("an attribute value that never closes does not let the rest of the document through uncleaned")
    func svgCleanerUnbalancedQuote() {
        let dirty = """
            <svg xmlns="http://www.w3.org/2000/svg x><g onload="x()"><a href="javascript:x()">            <text>t</text></a></g><foreignObject><p>x</p></foreignObject></svg>
            """
        let clean = SVGCleaner.clean(dirty)
        #expect(!clean.contains("onload"))
        #expect(!clean.contains("javascript:"))
        #expect(!clean.contains("foreignObject"))
    }

    @Test("a stray quote outside an attribute value is not an open quote")
    func svgCleanerStrayQuote() {
        let clean = SVGCleaner.clean(#"<svg><g class=a" id="n1"><text>ok</text></g><g onclick="x()"/></svg>"#)
        #expect(clean.contains("<text>ok</text>"))
        #expect(!clean.contains("onclick"))
    }

    @Test("SVG cleaning also drops namespace-prefixed scripts and foreign objects")
    func svgCleanerPrefixedElements() {
        let dirty = """
            <svg xmlns="http://www.w3.org/2000/svg" xmlns:s="http://www.w3.org/2000/svg">            <s:script>alert(1)</s:script><s:foreignObject><p>x</p></s:foreignObject><s:g/></svg>
            """
        let clean = SVGCleaner.clean(dirty)
        #expect(!clean.contains("script"))
        #expect(!clean.contains("foreignObject"))
        #expect(clean.contains("<s:g/>"))
    }

    @Test(
        "SVG cleaning reads an element's name as XML does: a prefix with dots, underscores or digits",
        arguments: ["s.g:script", "s_1:script", "a.b-c:foreignObject", "x.script"])
    func svgCleanerXMLNames(name: String) {
        let clean = SVGCleaner.clean("<svg><\(name) x='1'>alert(1)</\(name)><g/></svg>")
        let local = name.split(separator: ":").last.map(String.init) ?? name
        let isDropped = local == "script" || local == "foreignObject"
        #expect(clean.contains("<\(name)") == !isDropped)
        #expect(clean.contains("alert(1)") == !isDropped)
        #expect(clean.hasSuffix("<g/></svg>"))
    }

    @Test(
        "SVG cleaning ends an element's name where XML does: at the first character no name has",
        arguments: [#"script"d=>"#, "script\u{1B}>", "script\u{00A0}>", "s:script'x'>"])
    func svgCleanerNameEnd(rest: String) {
        let clean = SVGCleaner.clean("<svg><\(rest)alert(1)</script><g/></svg>")
        #expect(!clean.contains("alert(1)"))
        #expect(!clean.lowercased().contains("<script"))
    }
}
