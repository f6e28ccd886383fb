import Foundation
import Testing

@_spi(Harness) @testable import BindGraph

@Suite("Rendering with Graphviz")
struct GraphvizRendererTests {
    let renderer = GraphvizRenderer()

    @Test("SVG output is well-formed XML with one titled node group per node, showing its label")
    func svgNodes() throws {
        // Given a chain of three nodes
        let document = Fixtures.chain()

        // When it is drawn as SVG
        let rendered = try renderer.render(document, format: .svg)

        // Then the XML parses and every node is a <g class="node"> titled with its id, showing its text
        let svg = SVGInspection(rendered.data)
        #expect(svg.parsed, "\(svg.parseError ?? "")")
        #expect(svg.nodes.map(\.title).sorted() == ["a", "b", "c"])
        #expect(svg.node(titled: "a")?.texts == ["first", "Relay<String>"])
        #expect(svg.node(titled: "b")?.texts == ["second", "map"])
        #expect(svg.edges.count == 2)
        #expect(svg.edges.contains { $0.texts == ["map"] })
        #expect(rendered.layout == .dot)
        #expect(rendered.warnings.isEmpty)
    }

    @Test(
        "every format produces output with its signature",
        arguments: [
            (GraphFormat.svg, Array("<?xml".utf8)),
            (GraphFormat.dot, Array("digraph".utf8)),
            (GraphFormat.canonicalDOT, Array("digraph".utf8)),
            (GraphFormat.png, [UInt8].pngSignature),
            (GraphFormat.pdf, Array("%PDF".utf8)),
        ])
    func formats(format: GraphFormat, magic: [UInt8]) throws {
        let rendered = try renderer.render(Fixtures.chain(), format: format)
        #expect(rendered.data.count > magic.count)
        #expect(Array(rendered.data.prefix(magic.count)) == magic)
    }

    @Test("laid-out DOT carries positions and canonical DOT does not")
    func dotFormats() throws {
        let laidOut = try #require(try renderer.render(Fixtures.chain(), format: .dot).text)
        let canonical = try #require(try renderer.render(Fixtures.chain(), format: .canonicalDOT).text)
        #expect(laidOut.contains("pos="))
        #expect(!canonical.contains("pos="))
        #expect(canonical.contains("a -> b"))
    }

    @Test("nodes with a cluster key are drawn inside a titled cluster box")
    func clusters() throws {
        // Given two nodes in a declared cluster and one in an undeclared one
        var document = Fixtures.chain()
        document.clusters = [.init(key: "vm", title: "SignInViewModel", fillColor: .paleGray)]
        document.nodes[0].cluster = "vm"
        document.nodes[1].cluster = "vm"
        document.nodes[2].cluster = "elsewhere"

        // When drawn
        let svg = SVGInspection(try renderer.render(document, format: .svg).data)

        // Then there are two cluster boxes, the declared one titled
        #expect(svg.parsed)
        #expect(svg.clusters.count == 2)
        #expect(svg.clusters.contains { $0.texts == ["SignInViewModel"] })
        #expect(svg.clusters.contains { $0.texts.isEmpty })
        #expect(svg.nodes.count == 3)
    }

    @Test("the legend is its own box with a sample per node colour and per edge style")
    func legend() throws {
        var document = Fixtures.chain()
        document.legend = .init(
            nodes: [.init(label: "alive"), .init(label: "leaked", fillColor: .paleRed)],
            edges: [.init(label: "binding"), .init(label: "inner <flatMap>", style: .dashed)]
        )
        let svg = SVGInspection(try renderer.render(document, format: .svg).data)
        #expect(svg.parsed)
        #expect(svg.clusters.map(\.texts) == [["Legend"]])
        let texts = svg.nodes.flatMap(\.texts)
        for label in ["alive", "leaked", "binding", "inner <flatMap>"] { #expect(texts.contains(label)) }
        #expect(svg.edges.count == 2 + 2)
    }

    @Test("the title is drawn above the graph")
    func title() throws {
        var document = Fixtures.chain()
        document.title = "Sign-in & <friends>"
        let rendered = try renderer.render(document, format: .svg)
        #expect(SVGInspection(rendered.data).parsed)
        #expect(try #require(rendered.text).contains("Sign&#45;in &amp; &lt;friends&gt;"))
    }

    @Test("a node with neither title nor lines shows its id")
    func idAsLabel() throws {
        let document = GraphDocument(nodes: [.init(id: "output-7")])
        let svg = SVGInspection(try renderer.render(document).data)
        #expect(svg.node(titled: "output-7")?.texts == ["output-7"])
    }

    @Test("faded nodes and edges are drawn translucent")
    func faded() throws {
        let text = try #require(try renderer.render(Fixtures.chain(), format: .dot).text)
        #expect(text.contains("#dde8f54d"))
    }

    @Test("a graph of 1,000 nodes renders with the automatic layout")
    func thousandNodes() throws {
        let document = GraphDocument.randomDAG(nodes: 1_000)
        let rendered = try renderer.render(document, format: .svg, layout: .automatic)
        let svg = SVGInspection(rendered.data)
        #expect(svg.parsed)
        #expect(svg.nodes.count == 1_000)
        #expect(svg.edges.count == 1_500)
    }

    @Test("the automatic layout is dot up to the limit and sfdp above it")
    func automaticChoice() {
        let renderer = GraphvizRenderer(automaticLayoutNodeLimit: 2)
        #expect(renderer.resolvedLayout(.automatic, for: .randomDAG(nodes: 2)) == .dot)
        #expect(renderer.resolvedLayout(.automatic, for: .randomDAG(nodes: 3)) == .sfdp)
        #expect(renderer.resolvedLayout(.dot, for: .randomDAG(nodes: 3)) == .dot)
    }

    @Test("sfdp lays out the same document")
    func sfdp() throws {
        var document = Fixtures.chain()
        document.clusters = [.init(key: "k", title: "box")]
        document.nodes[0].cluster = "k"
        let rendered = try renderer.render(document, format: .svg, layout: .sfdp)
        #expect(rendered.layout == .sfdp)
        #expect(SVGInspection(rendered.data).nodes.count == 3)
    }

    @Test("renders from several tasks at once are serialised and all succeed")
    func concurrency() async throws {
        let renderer = self.renderer
        let counts = try await withThrowingTaskGroup(of: Int.self) { group in
            for task in 0..<4 {
                group.addTask {
                    var total = 0
                    for round in 0..<5 {
                        let document = GraphDocument.randomDAG(nodes: 30 + task, seed: UInt64(task * 10 + round))
                        total += SVGInspection(try renderer.render(document, format: .svg).data).nodes.count
                    }
                    return total
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(counts.sorted() == (0..<4).map { 5 * (30 + $0) })
    }
}

@Suite("Rendering errors")
struct GraphRenderErrorTests {
    let renderer = GraphvizRenderer()

    @Test("an unknown output format is a render error carrying Graphviz's message")
    func unknownFormat() {
        #expect {
            try renderer.render(Fixtures.chain(), format: GraphFormat(rawValue: "nonesuch"))
        } throws: { error in
            guard case .renderFailed(let format, let messages) = error as? GraphRenderError else { return false }
            return format == "nonesuch" && messages.contains { $0.contains("nonesuch") }
        }
    }

    @Test("an unknown layout engine is a layout error listing the engines that exist")
    func unknownLayout() {
        #expect {
            try renderer.render(Fixtures.chain(), layout: GraphLayout(rawValue: "nonesuch"))
        } throws: { error in
            guard case .layoutFailed(let engine, let messages) = error as? GraphRenderError else { return false }
            return engine == "nonesuch" && messages.contains { $0.contains("dot") && $0.contains("sfdp") }
        }
    }

    @Test("the renderer keeps working after an error")
    func recovers() throws {
        _ = try? renderer.render(Fixtures.chain(), format: GraphFormat(rawValue: "nonesuch"))
        let rendered = try renderer.render(Fixtures.chain())
        #expect(rendered.warnings.isEmpty)
        #expect(SVGInspection(rendered.data).nodes.count == 3)
    }

    @Test("an edge to a node that is not in the document is an error naming the node")
    func unknownNode() {
        var document = Fixtures.chain()
        document.edges.append(.init(from: "a", to: "ghost"))
        #expect(throws: GraphRenderError.unknownNode("ghost", edgeIndex: 2)) { try renderer.render(document) }
    }

    @Test("two nodes with the same id are an error")
    func duplicateNode() {
        var document = Fixtures.chain()
        document.nodes.append(.init(id: "a"))
        #expect(throws: GraphRenderError.duplicateNodeID("a")) { try renderer.render(document) }
    }

    @Test("errors read as one line")
    func descriptions() {
        #expect(
            "\(GraphRenderError.unknownNode("x\ny", edgeIndex: 3))"
                == #"edge 3 refers to node "x y", which is not in the graph"#)
    }
}
