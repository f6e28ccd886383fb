import Foundation
import Testing

/// What `graph` and `report` draw when nothing is alive at the end, and what `--max-nodes` means in both.
@Suite("the moment a graph shows, and its node limit, alike in graph and report")
struct GraphMomentTests {
    /// Three Outputs built into a chain, updated, then all released before the program exits: most
    /// Outputs (3) were alive right after event 5 (the last creation and its edge and binding).
    static func releasedEverything() -> [UInt8] {
        var trace = TraceFileWriter()
        trace.thread(1)
        trace.output(1, line: 3, label: "source")
        trace.output(2, kind: .map, line: 4, label: "doubled")
        trace.edge(1, 2, .map)
        trace.bind(1, to: 1, line: 4, isInternal: true)
        trace.output(3, kind: .map, line: 5, label: "shown")
        trace.edge(2, 3, .map)
        trace.bind(2, to: 2, line: 5, isInternal: true)
        trace.update(1)
        trace.unbind(2)
        trace.release(3)
        trace.unbind(1)
        trace.release(2)
        trace.release(1)
        trace.end()
        return trace.bytes
    }

    @Test("graph of a trace that released everything draws its busiest moment and says which")
    func graphBusiestMoment() throws {
        let trace = try TemporaryTrace(Self.releasedEverything())
        defer { trace.cleanUp() }

        let run = try Tool.run("graph", trace.path, "--format", "svg")

        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardError.contains("when most Outputs were alive (3); none is alive at the end"))
        for label in ["source", "doubled", "shown"] { #expect(run.standardOutput.contains(label)) }
        #expect(run.standardOutput.contains("when most Outputs were alive (3)"))
    }

    @Test("report of a trace that released everything draws its busiest moment, and the slider starts there")
    func reportBusiestMoment() throws {
        let trace = try TemporaryTrace(Self.releasedEverything())
        let out = try TemporaryDirectory()
        defer { trace.cleanUp(); out.cleanUp() }

        let run = try Tool.run("report", trace.path, "-o", out.path, "--fail-on", "none")

        #expect(run.status == 0, "\(run.standardError)")
        let html = String(decoding: try out.contents("index.html"), as: UTF8.self)
        #expect(html.contains("data:image/svg+xml;base64,"))
        #expect(!html.contains("no Output alive at the end"))
        let caption = try #require(html.firstMatch(of: #/id="graph-caption"[^>]*>([^<]*)</#)?.1)
        #expect(caption.contains("when most Outputs were alive (3); none is alive at the end"))
        let drawn = try #require(html.firstMatch(of: #/data-drawn="([0-9]+)"/#)?.1)
        #expect(caption.contains("after event #\(drawn),"))
        #expect(html.contains("class=\"node-box\" data-node=\"o3\""))
    }

    @Test("report --max-nodes draws that many Output nodes, findings first, as graph does, and says what it left out")
    func maxNodesAsInGraph() throws {
        let trace = try TemporaryTrace(GraphTraces.big(count: 60))
        let out = try TemporaryDirectory()
        defer { trace.cleanUp(); out.cleanUp() }

        let report = try Tool.run("report", trace.path, "-o", out.path, "--max-nodes", "20", "--fail-on", "none")
        let graph = try Tool.run("graph", trace.path, "--max-nodes", "20", "--format", "dot")

        #expect(report.status == 0, "\(report.standardError)")
        let html = String(decoding: try out.contents("index.html"), as: UTF8.self)
        #expect(html.contains("data:image/svg+xml;base64,"))
        #expect(html.contains("graph nodes for 20 Outputs (40 left out"))
        #expect(html.components(separatedBy: "class=\"node-box\" data-node=\"o").count - 1 == 20)
        #expect(graph.standardError.contains("40 Outputs left out: the graph is limited to 20 nodes"))
    }
}
