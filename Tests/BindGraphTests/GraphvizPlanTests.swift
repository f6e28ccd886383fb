import Testing

@_spi(Harness) @testable import BindGraph

@Suite("Planning a Graphviz graph")
struct GraphvizPlanTests {
    private func names(_ attributes: GraphvizPlan.Attributes) -> [String] { attributes.map(\.name) }

    @Test("dot gets iteration caps from 300 nodes on, not before")
    func dotTuning() {
        #expect(GraphvizPlan.tuning(for: .dot, nodeCount: 299).isEmpty)
        #expect(names(GraphvizPlan.tuning(for: .dot, nodeCount: 300)).contains("mclimit"))
    }

    @Test("sfdp removes overlaps below 2,000 nodes and leaves them alone above")
    func sfdpTuning() {
        #expect(GraphvizPlan.tuning(for: .sfdp, nodeCount: 1_999).contains { $0 == ("overlap", "prism") })
        #expect(!names(GraphvizPlan.tuning(for: .sfdp, nodeCount: 2_000)).contains("overlap"))
    }

    @Test("a cluster key without a declared cluster still gets an untitled cluster")
    func undeclaredCluster() throws {
        let document = GraphDocument(nodes: [.init(id: "a", cluster: "k")])
        let plan = try GraphvizPlan(document, engine: .dot)
        #expect(plan.clusters.count == 1)
        #expect(plan.clusters[0].labelHTML == nil)
        #expect(plan.nodes[0].cluster == 0)
    }

    @Test("a faded node gets translucent colours and grey text")
    func faded() throws {
        let plan = try GraphvizPlan(
            GraphDocument(nodes: [.init(id: "a", fillColor: .white, faded: true)]), engine: .dot)
        let attributes = plan.nodes[0].attributes
        #expect(attributes.contains { $0 == ("fillcolor", "#ffffff4d") })
        #expect(attributes.contains { $0 == ("fontcolor", GraphColor.gray.hexString) })
    }

    @Test("legend samples are anonymous nodes in their own cluster")
    func legend() throws {
        var document = GraphDocument(nodes: [.init(id: "a")])
        document.legend = .init(nodes: [.init(label: "alive")], edges: [.init(label: "binding", style: .dashed)])
        let plan = try GraphvizPlan(document, engine: .dot)
        #expect(plan.clusters.map(\.name) == ["cluster_legend"])
        #expect(plan.nodes.dropFirst().allSatisfy { $0.name == nil && $0.cluster == 0 })
        #expect(plan.edges.count == 1)
        #expect(plan.edges[0].attributes.contains { $0 == ("style", "dashed") })
    }
}
