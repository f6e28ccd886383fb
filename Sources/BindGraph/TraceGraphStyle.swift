@_spi(Harness) import BindAnalysis
import BindTraceModel

/// How the trace graph looks: one colour and shape per Output kind, one line style per operator,
/// and the colours of findings. The legend is made from the same table, so it cannot drift.
enum TraceGraphStyle {
    // MARK: Outputs

    /// The look of an Output node by what made it.
    struct NodeLook {
        var shape: GraphDocument.Shape
        var style: GraphDocument.NodeStyle
        var fill: GraphColor
        var border: GraphColor
    }

    static func look(for kind: OutputKind) -> NodeLook {
        switch kind {
        case .output: NodeLook(shape: .box, style: [.filled, .rounded], fill: .paleBlue, border: .blue)
        case .relay: NodeLook(shape: .box, style: [.filled, .rounded], fill: .paleYellow, border: amber)
        default: NodeLook(shape: .box, style: [.filled], fill: .paleGreen, border: .green)
        }
    }

    // MARK: Edges

    /// The look of an edge from an Output into the Output an operator derived from it.
    struct EdgeLook {
        var style: GraphDocument.EdgeStyle
        var color: GraphColor
        var penWidth: Double
        var arrowhead: GraphDocument.Arrowhead
        /// What the legend says.
        var meaning: String
    }

    /// Styles chosen so that no two operators share both colour and line or arrow.
    static func look(for operation: OutputKind, role: EdgeState.Role) -> EdgeLook {
        switch role {
        case .currentInner:
            return EdgeLook(
                style: .solid, color: teal, penWidth: 2.5, arrowhead: .normal, meaning: "flatMap: current inner")
        case .pastInner:
            return EdgeLook(
                style: .dashed, color: .gray, penWidth: 1, arrowhead: .empty, meaning: "flatMap: past inner")
        case .operator:
            break
        }
        switch operation {
        case .combine:
            return EdgeLook(style: .solid, color: .purple, penWidth: 2.5, arrowhead: .diamond, meaning: "combine")
        case .merge:
            return EdgeLook(style: .solid, color: .orange, penWidth: 1.5, arrowhead: .empty, meaning: "merge")
        case .map:
            return EdgeLook(style: .solid, color: .blue, penWidth: 1.5, arrowhead: .normal, meaning: "map")
        case .flatMap:
            return EdgeLook(style: .bold, color: teal, penWidth: 2.5, arrowhead: .vee, meaning: "flatMap (outer)")
        case .filter:
            return EdgeLook(style: .dashed, color: .green, penWidth: 1.5, arrowhead: .tee, meaning: "filter")
        case .reduce:
            return EdgeLook(style: .solid, color: brown, penWidth: 2, arrowhead: .dot, meaning: "reduce")
        case .ignoringDuplicates:
            return EdgeLook(
                style: .dotted, color: slate, penWidth: 1.5, arrowhead: .openDot, meaning: "ignoringDuplicates")
        case .output, .relay:
            return EdgeLook(style: .solid, color: .black, penWidth: 1, arrowhead: .normal, meaning: "\(operation)")
        }
    }

    /// Operators in the order the legend lists them.
    static let legendOperators: [OutputKind] = [
        .map, .filter, .combine, .merge, .flatMap, .reduce, .ignoringDuplicates,
    ]

    /// An Output delivering to a subscriber (closure or Binder).
    static let subscriberEdge = EdgeLook(
        style: .solid, color: GraphColor(red: 0x9E, green: 0x9E, blue: 0x9E), penWidth: 1, arrowhead: .dot,
        meaning: "delivers to a subscriber")
    /// A user closure on a feedback loop updating the next Output of the loop.
    static let feedbackEdge = EdgeLook(
        style: .bold, color: .red, penWidth: 3, arrowhead: .normal, meaning: "feedback loop (finding)")

    /// A reference on the path that keeps a leak alive (``ReferencePath``), from the live source down.
    static let keptAliveEdge = EdgeLook(
        style: .bold, color: GraphColor(red: 0xE6, green: 0x51, blue: 0x00), penWidth: 3.5, arrowhead: .normal,
        meaning: "keeps a leak alive (finding)")

    // MARK: Findings

    static let findingFill = GraphColor.paleRed
    static let findingBorder = GraphColor.red
    static let danglingFill = GraphColor.paleGray
    static let danglingBorder = GraphColor.gray
    static let subscriberFill = GraphColor.white
    static let subscriberBorder = GraphColor(red: 0x75, green: 0x75, blue: 0x75)

    // MARK: Extra colours

    static let amber = GraphColor(red: 0xB2, green: 0x7D, blue: 0x00)
    static let teal = GraphColor(red: 0x00, green: 0x83, blue: 0x8F)
    static let brown = GraphColor(red: 0x79, green: 0x55, blue: 0x48)
    static let slate = GraphColor(red: 0x54, green: 0x6E, blue: 0x7A)
    static let clusterFill = GraphColor(red: 0xFA, green: 0xFA, blue: 0xFA)
    static let clusterBorder = GraphColor(red: 0xBD, green: 0xBD, blue: 0xBD)

    // MARK: Legend

    /// The legend as ordinary nodes and edges in a "Legend" box, laid out as a compact grid: node
    /// samples in one row, edge samples three to a row, the rows held together by invisible edges.
    /// (``GraphDocument/Legend`` stacks every sample in one column, which in a left-to-right
    /// graph is a tall strip beside a wide picture.)
    static func legend() -> (nodes: [GraphDocument.Node], edges: [GraphDocument.Edge]) {
        let cluster = legendCluster
        var nodes: [GraphDocument.Node] = []
        var edges: [GraphDocument.Edge] = []
        func sample(_ label: String, _ look: NodeLook, faded: Bool = false) {
            nodes.append(
                .init(
                    id: "legend-node-\(nodes.count)", lines: [label], shape: look.shape, style: look.style,
                    fillColor: look.fill, borderColor: look.border, cluster: cluster, faded: faded))
        }
        sample("Output", look(for: .output))
        sample("Relay (events)", look(for: .relay))
        sample("derived (operator)", look(for: .map))
        sample(
            "subscriber",
            NodeLook(shape: .box, style: [.filled, .rounded, .dashed], fill: subscriberFill, border: subscriberBorder))
        sample(
            "finding: leak, cycle",
            NodeLook(shape: .box, style: [.filled, .rounded, .bold], fill: findingFill, border: findingBorder))
        sample(
            "dangling binder",
            NodeLook(shape: .box, style: [.filled, .rounded, .dashed], fill: danglingFill, border: danglingBorder),
            faded: true)
        sample("released", look(for: .output), faded: true)
        for index in 1..<nodes.count { edges.append(invisible(from: nodes[index - 1].id, to: nodes[index].id)) }

        var looks = legendOperators.map { look(for: $0, role: .operator) }
        looks += [
            look(for: .flatMap, role: .currentInner), look(for: .flatMap, role: .pastInner), subscriberEdge,
            feedbackEdge, keptAliveEdge,
        ]
        var previousHead: String?
        for (index, look) in looks.enumerated() {
            let tail = "legend-edge-\(index)"
            let head = "legend-edge-\(index)-head"
            nodes.append(
                .init(id: tail, lines: [look.meaning], shape: .plainText, style: [], fillColor: nil, cluster: cluster))
            nodes.append(.init(id: head, lines: [" "], shape: .plainText, style: [], fillColor: nil, cluster: cluster))
            edges.append(
                .init(
                    from: tail, to: head, style: look.style, color: look.color, penWidth: look.penWidth,
                    arrowhead: look.arrowhead))
            if let previousHead, index % legendEdgesPerRow != 0 {
                edges.append(invisible(from: previousHead, to: tail))
            }
            previousHead = head
        }
        return (nodes, edges)
    }

    static let legendCluster = "\u{1}legend"
    static let legendEdgesPerRow = 4

    private static func invisible(from: String, to: String) -> GraphDocument.Edge {
        .init(from: from, to: to, color: GraphColor(red: 0, green: 0, blue: 0, alpha: 0), penWidth: 0, arrowhead: .none)
    }
}
