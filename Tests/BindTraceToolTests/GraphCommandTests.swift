import Bind
import Foundation
import Testing

@Suite("bind-trace graph: the picture of a trace")
struct GraphCommandTests {
    @Test("writes a valid SVG showing each live Output's label, and says what it chose")
    func svg() throws {
        // Given a small app's trace
        let trace = try TemporaryTrace(GraphTraces.app())
        let out = try TemporaryDirectory()
        defer { trace.cleanUp(); out.cleanUp() }

        // When it is drawn
        let run = try Tool.run("graph", trace.path, "-o", out.file("graph.svg"))

        // Then the SVG parses and shows every label; the choices are on standard error
        #expect(run.status == 0, "\(run.standardError)")
        let svg = SVGText(try out.contents("graph.svg"))
        #expect(svg.parsed)
        for label in ["email", "normalized", "password", "credentials", "title"] {
            #expect(svg.texts.contains(label), "\(label) is drawn")
        }
        #expect(svg.texts.contains("Label"), "the Binder target hangs off 'title'")
        #expect(svg.texts.contains("⚠ leaked subscription"))
        #expect(run.standardError.contains("grouped by file"))
        #expect(run.standardError.contains("layout dot"))
        #expect(run.standardOutput.isEmpty)
        // Written atomically: no temporary file is left behind
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path) == ["graph.svg"])
    }

    @Test(
        "every format is written with its signature",
        arguments: [
            ("svg", Array("<?xml".utf8)), ("dot", Array("digraph".utf8)), ("png", [0x89, 0x50, 0x4E, 0x47]),
            ("pdf", Array("%PDF".utf8)),
        ])
    func formats(format: String, magic: [UInt8]) throws {
        let trace = try TemporaryTrace(GraphTraces.app())
        let out = try TemporaryDirectory()
        defer { trace.cleanUp(); out.cleanUp() }

        let run = try Tool.run("graph", trace.path, "--format", format, "-o", out.file("graph.\(format)"))

        #expect(run.status == 0, "\(run.standardError)")
        #expect(Array(try out.contents("graph.\(format)").prefix(magic.count)) == magic)
    }

    @Test("without -o, svg and dot go to standard output; binary formats need a file")
    func standardOutput() throws {
        let trace = try TemporaryTrace(GraphTraces.app())
        defer { trace.cleanUp() }

        let svg = try Tool.run("graph", trace.path)
        let dot = try Tool.run("graph", trace.path, "--format", "dot", "-o", "-")
        let png = try Tool.run("graph", trace.path, "--format", "png")

        #expect(svg.status == 0)
        #expect(svg.standardOutput.hasPrefix("<?xml"))
        #expect(dot.standardOutput.hasPrefix("digraph"))
        #expect(png.status == 2)
        #expect(png.standardError.contains("png is binary"))
    }

    @Test("--at draws the graph as it stood at that moment")
    func atMoment() throws {
        let trace = try TemporaryTrace(GraphTraces.app())
        defer { trace.cleanUp() }

        // Event 4 is the edge email → normalized: 'password' does not exist yet
        let early = try Tool.run("graph", trace.path, "--at", "4", "--format", "dot")
        let beyond = try Tool.run("graph", trace.path, "--at", "999")

        #expect(early.status == 0)
        #expect(early.standardOutput.contains("normalized"))
        #expect(!early.standardOutput.contains("password"))
        #expect(early.standardError.contains("after event #4"))
        #expect(beyond.status == 2)
        #expect(beyond.standardError.contains("there is no event 999"))
    }

    @Test("hostile labels from the trace are drawn as escaped text")
    func hostileLabels() throws {
        // Given labels a hostile or careless program could record
        let long = String(repeating: "x", count: 10_000)
        let labels = ["<script>alert(1)</script>", "say \"hi\" & 'bye'", "back\\slash \\N", "two\nlines", long]
        let trace = try TemporaryTrace(GraphTraces.app(labels: labels))
        let out = try TemporaryDirectory()
        defer { trace.cleanUp(); out.cleanUp() }

        // When drawn as SVG and DOT
        let svgRun = try Tool.run("graph", trace.path, "-o", out.file("graph.svg"))
        let dotRun = try Tool.run("graph", trace.path, "--format", "dot")

        // Then the SVG parses, holds the text as text, and no label became markup
        #expect(svgRun.status == 0, "\(svgRun.standardError)")
        #expect(dotRun.status == 0, "\(dotRun.standardError)")
        let data = try out.contents("graph.svg")
        let svg = SVGText(data)
        #expect(svg.parsed)
        #expect(!svg.elements.contains("script"))
        #expect(svg.texts.contains("<script>alert(1)</script>"))
        #expect(svg.texts.contains("say \"hi\" & 'bye'"))
        #expect(svg.texts.contains("back\\slash \\N"))
        #expect(svg.texts.contains("two lines"), "a title is one line")
        #expect(svg.texts.contains { $0.hasPrefix("xxxx") && $0.hasSuffix("…") && $0.count < 100 })
        #expect(!String(decoding: data, as: UTF8.self).contains("<script>"))
    }

    @Test("a graph of 2,500 Outputs renders with the automatic (sfdp) layout")
    func bigGraph() throws {
        // BIND_GRAPH_BIG_OUTPUTS=10000 tries the size docs/graph.md promises (about half a minute).
        let count = ProcessInfo.processInfo.environment["BIND_GRAPH_BIG_OUTPUTS"].flatMap { Int($0) } ?? 2_500
        let trace = try TemporaryTrace(GraphTraces.big(count: count))
        let out = try TemporaryDirectory()
        defer { trace.cleanUp(); out.cleanUp() }

        let run = try Tool.run("graph", trace.path, "-o", out.file("graph.svg"))

        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardError.contains("\(count) Outputs"))
        #expect(run.standardError.contains("layout sfdp"))
        let data = try out.contents("graph.svg")
        let svg = SVGText(data)
        if data.count < 10_000_000 {
            #expect(svg.parsed, "\(svg.parseError ?? "")")
        } else {
            // Foundation's XMLParser on Linux gives up on documents this big (error 1 at the last
            // line) although they are well-formed (Python's parser reads the 12.7 MB of 10,000 Outputs).
            #expect(String(decoding: data.suffix(16), as: UTF8.self).contains("</svg>"))
        }
        #expect(svg.texts.contains("node \(count)"))
    }

    @Test("findings do not change the exit status; a bad trace is exit 2 with one line naming it")
    func exitStatus() throws {
        let loop = try TemporaryTrace(GraphTraces.loop())
        let bad = try TemporaryTrace(Array("not a trace at all".utf8))
        defer { loop.cleanUp(); bad.cleanUp() }

        let drawn = try Tool.run("graph", loop.path, "--format", "dot")
        let failed = try Tool.run("graph", bad.path, "-o", "-")

        #expect(drawn.status == 0)
        #expect(drawn.standardError.contains("1 finding drawn"))
        #expect(drawn.standardOutput.contains("feedback loop"))
        #expect(failed.status == 2)
        #expect(failed.standardError.split(separator: "\n").count == 1)
        #expect(failed.standardError.contains("\(bad.path): not a Bind trace"))
        #expect(failed.standardOutput.isEmpty)
    }
}
