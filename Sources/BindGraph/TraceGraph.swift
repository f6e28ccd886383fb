import BindText

/// A picture of a trace's Outputs, ready for ``GraphvizRenderer``, with what the builder chose.
///
/// Made by ``TraceGraphBuilder/build(_:findings:)``.
package struct TraceGraph: Sendable {
    /// What to render.
    package var document: GraphDocument
    /// How nodes were grouped into boxes (never ``TraceGraphBuilder/Clustering/automatic``).
    package var clustering: TraceGraphBuilder.Clustering
    /// Outputs in the state that the picture shows.
    package var outputCount: Int
    /// Nodes standing for Outputs (fewer than ``outputCount`` when repeated structures were collapsed).
    package var outputNodeCount: Int
    /// Nodes that stand for several identical Outputs ("×N").
    package var collapsedNodeCount: Int
    /// Whether subscribers are drawn as nodes (above ``TraceGraphBuilder/subscriberNodeLimit`` Output
    /// nodes they are counted in their Output's node instead).
    package var drawsSubscribers: Bool
    /// Outputs left out because the graph had more than ``TraceGraphBuilder/maximumNodes`` nodes.
    package var omittedOutputs: Int = 0
    /// Output nodes left out for the same reason (fewer than ``omittedOutputs`` when collapsed).
    package var omittedNodes: Int = 0
    /// Each subscriber node's subscriptions, by node id (`o12-s…`): what the report outlines for a
    /// finding about a subscription.
    package var subscriberNodes: [String: [UInt64]] = [:]

    /// What was left out, for the user (`12,000 Outputs in 11,800 nodes left out: more than 4,000
    /// nodes`); `nil` when everything is drawn.
    package func omissionNote(maximumNodes: Int) -> String? {
        guard omittedNodes > 0 else { return nil }
        let outputs = omittedOutputs == 1 ? "1 Output" : "\(Self.grouped(omittedOutputs)) Outputs"
        let nodes = omittedNodes == omittedOutputs ? "" : " (\(Self.grouped(omittedNodes)) nodes)"
        return "\(outputs)\(nodes) left out: the graph is limited to \(Self.grouped(maximumNodes)) nodes, "
            + "those with findings first"
    }

    static func grouped(_ number: Int) -> String { NumberText.grouped(number) }

    /// One sentence for the user: `52 Outputs as 20 nodes (6 collapsed ×N), grouped by file`.
    package var description: String {
        let outputs = outputCount == 1 ? "1 Output" : "\(outputCount) Outputs"
        var text = outputs
        if outputNodeCount != outputCount {
            text += " as \(outputNodeCount) node\(outputNodeCount == 1 ? "" : "s")"
            text += " (\(collapsedNodeCount) collapsed ×N)"
        }
        switch clustering {
        case .file: text += ", grouped by file"
        case .module: text += ", grouped by module"
        case .none, .automatic: text += ", not grouped"
        }
        if !drawsSubscribers { text += ", subscribers counted, not drawn" }
        if omittedNodes > 0 { text += ", \(Self.grouped(omittedOutputs)) left out" }
        return text
    }
}
