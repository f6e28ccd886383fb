@_spi(Harness) import BindAnalysis
@_spi(Harness) import BindTraceModel
import BindTraceTestSupport
import Foundation
import Testing

@_spi(Harness) @testable import BindReport

/// The fixture's graph with its first node named as the graph names Output 3's node.
private let graphWithOutput3 = Fixtures.svg.replacingOccurrences(of: "<title>email</title>", with: "<title>o3</title>")

@Suite("index.html: selecting a finding outlines its Outputs in the graph")
struct GraphHighlightTests {
    @Test("an Output node's box is read from the SVG in viewBox units, through the graph's transform")
    func boxes() {
        let layout = GraphNodeBoxes(svg: graphWithOutput3)

        // The ellipse at (60, -90), radii 52 and 18, moved by translate(4 112).
        #expect(layout.boxes == [GraphNodeBoxes.Box(node: "o3", x: 12, y: 4, width: 104, height: 36)])
        #expect(layout.viewWidth == 260)
        #expect(layout.viewHeight == 116)
    }

    @Test("nodes that are not Outputs' (legend, subscribers, anything named by a trace) get no box")
    func onlyOutputNodes() {
        #expect(GraphNodeBoxes(svg: Fixtures.svg).boxes.isEmpty)
        #expect(GraphNodeBoxes(svg: "<svg><g class=\"node\"><title>o1</title></g>").boxes.isEmpty)
        #expect(GraphNodeBoxes(svg: "not svg at all \u{0}").boxes.isEmpty)
    }

    @Test("a path's box spans every point Graphviz wrote")
    func pathBox() {
        let svg = """
            <svg width="100pt" height="50pt" viewBox="0.00 0.00 100.00 50.00">
            <g id="graph0" class="graph" transform="scale(1 1) rotate(0) translate(4 46)">
            <g id="node1" class="node"><title>g12</title>
            <path fill="#fff" d="M40,-40C40,-40 10,-40 10,-40 4,-40 2,-34 2,-30 2,-30 2,-10 2,-10 4,-4 10,-4 10,-4 40,-4"/>
            </g></g></svg>
            """

        let layout = GraphNodeBoxes(svg: svg)

        #expect(layout.boxes == [GraphNodeBoxes.Box(node: "g12", x: 6, y: 6, width: 38, height: 36)])
    }

    @Test("the page lists each finding's Outputs and the boxes over the graph, as data only")
    func page() {
        var content = Fixtures.hostileContent()
        content.graphSVG = graphWithOutput3

        let html = ReportWriter.html(content)

        #expect(html.contains("id=\"finding-2\" tabindex=\"0\" data-outputs=\"3\""))
        #expect(html.contains("<div class=\"node-box\" data-node=\"o3\" data-box=\"12.0 4.0 104.0 36.0\"></div>"))
        #expect(html.contains("id=\"graph-overlay\" data-view-width=\"260.0\" data-view-height=\"116.0\""))
    }

    @Test("the sample app's real graph gives a box to every Output node Graphviz drew")
    func realGraph() throws {
        // A graph as GraphvizRenderer writes it: every node of an Output named o<id>.
        let svg = """
            <svg width="2538pt" height="1195pt" viewBox="0.00 0.00 2538.00 1195.00">
            <g id="graph0" class="graph" transform="scale(1 1) rotate(0) translate(4 1191)">
            <g id="node1" class="node">
            <title>o1</title>
            <g id="a_node1"><a xlink:title="#1 &#39;email&#39; (String)">
            <path fill="#f8d7da" d="M207,-202C207,-202 40,-202 40,-202 34,-202 28,-196 28,-190 28,-190 28,-154 28,-154"/>
            </a></g></g>
            <g id="node4" class="node">
            <title>o4</title>
            <g id="a_node4"><a xlink:title="#4 map">
            <polygon fill="#f8d7da" points="473,-202 282,-202 282,-142 473,-142 473,-202"/>
            </a></g></g></g></svg>
            """

        let layout = GraphNodeBoxes(svg: svg)

        #expect(layout.boxes.map(\.node) == ["o1", "o4"])
        #expect(layout.boxes.last == GraphNodeBoxes.Box(node: "o4", x: 286, y: 989, width: 191, height: 60))
    }

    @Test("each Output node carries its lifetime, and the page has a slider over the trace's events")
    func lifetimes() {
        var content = Fixtures.hostileContent()
        content.graphSVG = graphWithOutput3
        content.outputLifetimes = [3: OutputLifetime(created: 2, released: 4)]
        content.lastEvent = 6

        let html = ReportWriter.html(content)

        #expect(html.contains("data-node=\"o3\" data-box=\"12.0 4.0 104.0 36.0\" data-life=\"2 4\""))
        #expect(html.contains("<input id=\"graph-time\" type=\"range\" min=\"0\" max=\"6\" value=\"6\""))
    }

    @Test("a report read from a trace knows when each Output was created and released")
    func lifetimesFromTrace() throws {
        var trace = TraceWriter(minor: 0)
        trace.thread(1)
        for (id, label) in [(UInt64(1), "kept"), (2, "dropped")] {
            trace.event(
                .outputCreated(
                    TraceEvent.OutputCreation(
                        output: id, kind: .output, valueType: "Int", site: SourceSite(file: "App/A.swift", line: 1),
                        label: label)))
        }
        trace.event(.released(output: 2))
        trace.end()
        let path = NSTemporaryDirectory() + "report-\(UUID().uuidString).trace"
        try Data(trace.bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        var options = TraceReportOptions()
        options.includesReleasedOutputs = true

        let content = try ReportContent.build(fromTrace: path, options: options).content

        #expect(content.outputLifetimes[1] == OutputLifetime(created: 1, released: nil))
        #expect(content.outputLifetimes[2] == OutputLifetime(created: 2, released: 3))
        #expect(content.lastEvent == 3)
    }

    @Test("a report of several traces shows each process's graph as a still, cleaned image under its name")
    func processGraphs() throws {
        var content = Fixtures.hostileContent()
        content.graphSVG = nil
        content.processGraphs = [
            ProcessGraph(trace: "worker-1.trace", svg: Fixtures.svg),
            ProcessGraph(trace: Hostile.script, svg: Fixtures.svg),
        ]

        let html = ReportWriter.html(content)

        #expect(html.components(separatedBy: "<figure class=\"process-graph\">").count == 3)
        #expect(html.contains("<figcaption>worker-1.trace</figcaption>"))
        #expect(html.contains("<figcaption>&lt;script&gt;alert(1)&lt;/script&gt;</figcaption>"))
        #expect(!html.contains("id=\"graph-viewport\""))
        let images = html.matches(of: #/src="data:image/svg\+xml;base64,([^"]*)"/#).map { String($0.1) }
        #expect(images.count == 2)
        for image in images {
            let svg = try #require(Data(base64Encoded: image).map { String(decoding: $0, as: UTF8.self) })
            #expect(!svg.contains("<script"))
            #expect(!svg.contains("onload"))
        }
    }
}
