@_spi(Harness) import BindAnalysis
@_spi(Harness) import BindTraceModel
import Foundation
import Testing

@_spi(Harness) @testable import BindGraph

@Suite("Drawing a trace's graph (TraceGraphBuilder)")
struct TraceGraphBuilderTests {
    let builder = TraceGraphBuilder(collapsing: .never)

    private func node(_ graph: TraceGraph, _ id: String) throws -> GraphDocument.Node {
        try #require(graph.document.nodes.first { $0.id == id }, "node \(id)")
    }

    private func edges(_ graph: TraceGraph, from: String, to: String) -> [GraphDocument.Edge] {
        graph.document.edges.filter { $0.from == from && $0.to == to }
    }

    @Test("a node per live Output: its label, else its kind and id; type, line, updates and last value")
    func outputNodes() throws {
        // Given the sign-in shape
        let state = TraceStates.signIn().state()

        // When it is drawn
        let graph = builder.build(state, findings: [])

        // Then each Output has a node with what a reader needs
        #expect(graph.outputCount == state.outputs.count)
        let email = try node(graph, "o1")
        #expect(email.title == "email")
        #expect(email.lines.contains("Output<String>"))
        #expect(email.lines.contains("1 update · last ada@example.com"))
        #expect(try node(graph, "o4").title == "map #4")
        #expect(try node(graph, "o4").lines.contains("map → Int"))
        #expect(try node(graph, "o3").lines.contains("Relay<()>"))
        // Colour by kind: Output, Relay and derived differ
        let fills = Set(try ["o1", "o3", "o4"].map { try node(graph, $0).fillColor })
        #expect(fills.count == 3)
    }

    @Test(
        "edges are styled per operator, so combine, merge, map, flatMap, filter, reduce and ignoringDuplicates differ")
    func operatorEdges() throws {
        let graph = builder.build(TraceStates.signIn().state(), findings: [])

        let byOperator: [(String, String)] = [
            ("o1", "o4"), ("o4", "o5"), ("o5", "o6"), ("o6", "o7"), ("o3", "o8"), ("o7", "o11"), ("o11", "o12"),
        ]
        var looks: Set<String> = []
        for (from, to) in byOperator {
            let edge = try #require(edges(graph, from: from, to: to).first, "\(from) → \(to)")
            looks.insert("\(edge.style)|\(edge.color?.hexString ?? "")|\(edge.arrowhead)")
        }
        #expect(looks.count == byOperator.count)
    }

    @Test("maximumNodes keeps that many Output nodes, drops edges to the others, and counts what it left out")
    func nodeLimit() throws {
        let state = TraceStates.signIn().state()
        let all = builder.build(state, findings: [])
        var limited = builder
        limited.maximumNodes = 2

        let graph = limited.build(state, findings: [])

        #expect(graph.outputNodeCount == 2)
        #expect(graph.omittedNodes == all.outputNodeCount - 2)
        #expect(graph.omittedOutputs == state.outputs.count - 2)
        let ids = Set(graph.document.nodes.map(\.id))
        #expect(graph.document.edges.allSatisfy { ids.contains($0.from) && ids.contains($0.to) })
        #expect(graph.omissionNote(maximumNodes: 2)?.contains("left out: the graph is limited to 2 nodes") == true)
        #expect(all.omissionNote(maximumNodes: 4_000) == nil)
    }

    @Test("a flatMap's current inner edge differs from its past ones")
    func innerEdges() throws {
        let graph = builder.build(TraceStates.signIn().state(), findings: [])

        let current = try #require(edges(graph, from: "o10", to: "o8").first)
        let past = try #require(edges(graph, from: "o9", to: "o8").first)
        #expect(current.label == "current inner")
        #expect(past.label == "past inner")
        #expect(current.style != past.style)
    }

    @Test("the legend explains node kinds, every operator and both inner edges")
    func legend() throws {
        let graph = builder.build(TraceStates.signIn().state(), findings: [])

        let legend = graph.document.nodes.filter { $0.cluster == TraceGraphStyle.legendCluster }.flatMap(\.lines)
        for name in [
            "map", "filter", "combine", "merge", "reduce", "ignoringDuplicates", "flatMap: current inner",
            "flatMap: past inner",
        ] {
            #expect(legend.contains(name), "legend has \(name)")
        }
        #expect(legend.contains("Relay (events)"))
        #expect(graph.document.clusters.contains { $0.title == "Legend" })
    }

    @Test("Binder targets of one type are one subscriber node with a count; closures get their own; operators none")
    func subscribers() throws {
        let graph = builder.build(TraceStates.signIn().state(), findings: [])

        let status = graph.document.edges.filter { $0.from == "o11" }.map(\.to)
        let labels = graph.document.nodes.filter { status.contains($0.id) && $0.title == "Label ×2" }
        #expect(labels.count == 1)
        let closure = graph.document.edges.filter { $0.from == "o5" }.compactMap { edge in
            graph.document.nodes.first { $0.id == edge.to && $0.title == "closure" }
        }
        #expect(closure.count == 1)
        // Operators' own subscriptions are edges, never subscriber nodes
        let subscriberNodes = graph.document.nodes.filter { $0.id.contains("-s") }
        #expect(subscriberNodes.count == 2)
    }

    @Test("leaked Outputs and subscriptions are red, a feedback loop is red along its path, dangling binders grey")
    func findings() throws {
        // Given findings on the sign-in shape
        var trace = TraceStates.signIn()
        trace.bind(23, to: 2, line: 40, target: "Button")
        trace.update(2)
        trace.add(.dangling(subscription: 23))  // delivered by that update
        let state = trace.state()
        let findings = [
            Finding(kind: .leakedOutput, message: "leaks", site: TraceStates.site(5), outputs: [12]),
            Finding(
                kind: .leakedSubscription, message: "leaks", site: TraceStates.site(30), outputs: [11],
                subscriptions: [20, 21]),
            // email → map → normalized email → (closure 22) → email
            Finding(
                kind: .feedbackCycle, message: "loops", site: TraceStates.site(31), outputs: [1, 4, 5],
                subscriptions: [1041, 1054, 22]),
        ]

        // When it is drawn
        let graph = builder.build(state, findings: findings)

        // Then
        let red = GraphColor.red
        #expect(try node(graph, "o12").fillColor == .paleRed)
        #expect(try node(graph, "o12").lines.contains("⚠ leaked Output"))
        #expect(try node(graph, "o11").borderColor == red)
        let label = try #require(graph.document.nodes.first { $0.title == "Label ×2" })
        #expect(label.borderColor == red)
        for id in ["o1", "o4", "o5"] { #expect(try node(graph, id).fillColor == .paleRed, "\(id) on the loop") }
        #expect(edges(graph, from: "o1", to: "o4").first?.color == red)
        #expect(edges(graph, from: "o4", to: "o5").first?.color == red)
        let closure = try #require(graph.document.nodes.first { $0.title == "closure" })
        #expect(closure.borderColor == red)
        #expect(edges(graph, from: closure.id, to: "o1").first?.label == "updates")
        let button = try #require(graph.document.nodes.first { $0.title == "Button" })
        #expect(button.faded)
        #expect(button.lines.contains("⚠ target gone: dangling"))
    }

    @Test("what keeps a leak alive is drawn thick from the live source down to the leak, and nothing else is")
    func keptAlivePaths() throws {
        // Given an app Output holding a map made by a screen, a closure left bound to it, and a healthy map
        var trace = TraceStates()
        trace.output(1, label: "sender", type: "String")
        trace.derive(2, .map, from: [1], line: 71)
        trace.derive(3, .map, from: [1], line: 80)
        trace.bind(30, to: 1, line: 12)
        let state = trace.state()
        let findings = [
            Finding(kind: .leakedOutput, message: "leaks", site: TraceStates.site(71), outputs: [2]),
            Finding(kind: .leakedSubscription, message: "leaks", site: TraceStates.site(12), subscriptions: [30]),
        ]
        let keptAlive = TraceGraphStyle.keptAliveEdge

        // When it is drawn with its findings, and without
        let graph = builder.build(state, findings: findings)
        let clean = builder.build(state, findings: [])

        // Then the references on each path carry the kept-alive look; the healthy map's edge does not
        let heldMap = try #require(edges(graph, from: "o1", to: "o2").first)
        #expect(heldMap.color == keptAlive.color && heldMap.penWidth == keptAlive.penWidth)
        #expect(heldMap.tooltip?.hasSuffix(keptAlive.meaning) == true)
        let closure = try #require(graph.document.nodes.first { $0.title == "closure" })
        #expect(edges(graph, from: "o1", to: closure.id).first?.color == keptAlive.color)
        #expect(edges(graph, from: "o1", to: "o3").first?.color != keptAlive.color)
        #expect(!clean.document.edges.contains { $0.color == keptAlive.color && !$0.from.hasPrefix("legend") })
    }

    @Test("a leak merged from several Outputs of one line has each Output's path drawn")
    func keptAlivePathsOfMergedLeak() throws {
        // Given two maps made at one line on two long-lived Outputs, reported as one finding
        var trace = TraceStates()
        trace.output(1, label: "sender", type: "String")
        trace.output(2, label: "title", type: "String")
        trace.derive(3, .map, from: [1], line: 71)
        trace.derive(4, .map, from: [2], line: 71)
        let finding = Finding(kind: .leakedOutput, message: "leaks", site: TraceStates.site(71), outputs: [3, 4])

        // When it is drawn
        let graph = builder.build(trace.state(), findings: [finding])

        // Then both sources' edges carry the kept-alive look
        let keptAlive = TraceGraphStyle.keptAliveEdge.color
        #expect(edges(graph, from: "o1", to: "o3").first?.color == keptAlive)
        #expect(edges(graph, from: "o2", to: "o4").first?.color == keptAlive)
    }

    @Test("a loop whose closure is no longer bound is still drawn, Output to Output")
    func unboundLoop() throws {
        var trace = TraceStates.signIn()
        trace.add(.unbound(subscription: 22, reason: .unsubscribe, cause: nil))
        let findings = [
            Finding(
                kind: .feedbackCycle, message: "loops", site: nil, outputs: [1, 4, 5], subscriptions: [1041, 1054, 22])
        ]

        let graph = builder.build(trace.state(), findings: findings)

        #expect(edges(graph, from: "o5", to: "o1").first?.label == "feeds back")
    }

    @Test("--at: the graph as it stood at that moment")
    func atMoment() throws {
        let trace = TraceStates.signIn()
        // Right after the email's map was created (its edge is event 5)
        let graph = builder.build(trace.state(at: 5), findings: [])

        #expect(graph.document.nodes.filter { $0.id.hasPrefix("o") }.map(\.id).sorted() == ["o1", "o2", "o3", "o4"])
    }

    @Test("released Outputs are drawn faded when the state keeps them")
    func released() throws {
        var trace = TraceStates.signIn()
        trace.release(12)

        let kept = builder.build(trace.state(keepingReleased: true), findings: [])
        let dropped = builder.build(trace.state(), findings: [])

        #expect(try node(kept, "o12").faded)
        #expect(try node(kept, "o12").lines.contains { $0.hasPrefix("released") })
        #expect(!dropped.document.nodes.contains { $0.id == "o12" })
    }

    @Test("repeated identical structures collapse into one ×N node; different ones do not")
    func collapsing() throws {
        // Given ten cells: a title Output, a map of it bound to a Label; and one odd cell without the Label
        var trace = TraceStates()
        for cell in UInt64(0)..<10 {
            trace.output(100 + cell, line: 10, label: "title", type: "String")
            trace.derive(200 + cell, .map, from: [100 + cell], line: 11)
            trace.bind(300 + cell, to: 200 + cell, line: 12, target: "Label")
        }
        trace.output(110, line: 10, label: "title", type: "String")
        trace.derive(210, .map, from: [110], line: 11)

        // When drawn with automatic collapsing
        let graph = TraceGraphBuilder().build(trace.state(), findings: [])

        // Then the ten cells are three nodes (title ×10 → map ×10 → Label ×10), the odd cell two more
        let titles = graph.document.nodes.compactMap(\.title).sorted()
        #expect(titles == ["Label ×10", "map #210", "map ×10", "title", "title ×10"])
        #expect(graph.outputNodeCount == 4)
        #expect(graph.collapsedNodeCount == 2)
        let collapsedEdge = try #require(graph.document.edges.first { $0.from == "g100" && $0.to == "g200" })
        #expect(collapsedEdge.label == "×10")
    }

    @Test("clusters: by file when there are several files, none for one file, as asked otherwise")
    func clustering() {
        let state = TraceStates.signIn().state()

        let automatic = TraceGraphBuilder().build(state, findings: [])
        let none = TraceGraphBuilder(clustering: .none).build(state, findings: [])
        let module = TraceGraphBuilder(clustering: .module).build(state, findings: [])

        #expect(automatic.clustering == .file)
        func boxes(_ graph: TraceGraph) -> Set<String> {
            Set(graph.document.clusters.map(\.key).filter { $0 != TraceGraphStyle.legendCluster })
        }
        #expect(boxes(automatic) == ["App/Screen.swift", "App/View.swift"])
        #expect(boxes(none).isEmpty)
        #expect(boxes(module) == ["App"])
    }

    @Test("the document renders with Graphviz as SVG showing every live Output's label")
    func renders() throws {
        let graph = TraceGraphBuilder().build(TraceStates.signIn().state(), findings: [])

        let rendered = try GraphvizRenderer().render(graph.document, format: .svg)

        let svg = SVGInspection(rendered.data)
        #expect(svg.parsed, "\(svg.parseError ?? "")")
        let texts = svg.nodes.flatMap(\.texts)
        for label in ["email", "password", "tapped", "normalized email", "credentials", "session", "status", "count"] {
            #expect(texts.contains(label), "\(label) is drawn")
        }
    }
}
