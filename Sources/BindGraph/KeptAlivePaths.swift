@_spi(Harness) import BindAnalysis
import BindTraceModel

/// What keeps each leak alive (``ReferencePath``), as the graph emphasises it: the operator edges
/// and subscriber edges of the path, drawn thick in the "kept alive by" colour from the live source
/// down to the leak.
struct KeptAlivePaths: Sendable {
    var operatorEdges: Set<Pair> = []
    /// Subscriptions on a path: the edge from their Output to their subscriber node is emphasised.
    var subscriptions: Set<UInt64> = []

    init(findings: [Finding], state: GraphState) {
        for finding in findings {
            let links = ReferencePath.links(finding, in: state)
            for edge in links.operatorEdges { operatorEdges.insert(Pair(edge.source, edge.derived)) }
            subscriptions.formUnion(links.subscriptions)
        }
    }

    var isEmpty: Bool { operatorEdges.isEmpty && subscriptions.isEmpty }

    /// Draws `edge` as a hop of a kept-alive path.
    static func emphasise(_ edge: inout GraphDocument.Edge) {
        let look = TraceGraphStyle.keptAliveEdge
        edge.color = look.color
        edge.penWidth = look.penWidth
        edge.style = look.style
        edge.faded = false
        edge.tooltip = (edge.tooltip.map { $0 + "; " } ?? "") + look.meaning
    }
}
