import Bind
import BindAnalysis

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
    static let legendOperators: [OutputKind] = [.map, .filter, .combine, .merge, .flatMap, .reduce, .ignoringDuplicates]

    /// An Output delivering to a subscriber (closure or Binder).
    static let subscriberEdge = EdgeLook(
        style: .solid, color: GraphColor(red: 0x9E, green: 0x9E, blue: 0x9E), penWidth: 1, arrowhead: .dot,
        meaning: "delivers to a subscriber")
    /// A user closure on a feedback loop updating the next Output of the loop.
    static let feedbackEdge = EdgeLook(
        style: .bold, color: .red, penWidth: 3, arrowhead: .normal, meaning: "feedback loop (finding)")

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

    static func legend(operators: Set<OutputKind>? = nil) -> GraphDocument.Legend {
        var legend = GraphDocument.Legend(title: "Legend")
        let output = look(for: .output)
        let relay = look(for: .relay)
        let derived = look(for: .map)
        legend.nodes = [
            .init(label: "Output", shape: output.shape, style: output.style, fillColor: output.fill, borderColor: output.border),
            .init(label: "Relay (events)", shape: relay.shape, style: relay.style, fillColor: relay.fill, borderColor: relay.border),
            .init(label: "derived (operator)", shape: derived.shape, style: derived.style, fillColor: derived.fill, borderColor: derived.border),
            .init(label: "subscriber: closure or Binder", shape: .box, style: [.filled, .rounded, .dashed], fillColor: subscriberFill, borderColor: subscriberBorder),
            .init(label: "finding: leak or cycle", shape: .box, style: [.filled, .rounded, .bold], fillColor: findingFill, borderColor: findingBorder),
            .init(label: "dangling binder", shape: .box, style: [.filled, .rounded, .dashed], fillColor: danglingFill, borderColor: danglingBorder, faded: true),
            .init(label: "released", shape: .box, style: [.filled, .rounded], fillColor: .paleBlue, faded: true),
        ]
        let shown = legendOperators.filter { operators?.contains($0) ?? true }
        var edges = shown.map { operation in
            let look = look(for: operation, role: .operator)
            return GraphDocument.Legend.EdgeSample(
                label: look.meaning, style: look.style, color: look.color, penWidth: look.penWidth,
                arrowhead: look.arrowhead)
        }
        for role in [EdgeState.Role.currentInner, .pastInner] where operators?.contains(.flatMap) ?? true {
            let look = look(for: .flatMap, role: role)
            edges.append(.init(label: look.meaning, style: look.style, color: look.color, penWidth: look.penWidth, arrowhead: look.arrowhead))
        }
        for look in [subscriberEdge, feedbackEdge] {
            edges.append(.init(label: look.meaning, style: look.style, color: look.color, penWidth: look.penWidth, arrowhead: look.arrowhead))
        }
        legend.edges = edges
        return legend
    }
}
