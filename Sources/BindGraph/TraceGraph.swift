/// A picture of a trace's Outputs, ready for ``GraphvizRenderer``, with what the builder chose.
///
/// Made by ``TraceGraphBuilder/build(_:findings:)``.
public struct TraceGraph: Sendable {
    /// What to render.
    public var document: GraphDocument
    /// How nodes were grouped into boxes (never ``TraceGraphBuilder/Clustering/automatic``).
    public var clustering: TraceGraphBuilder.Clustering
    /// Outputs in the state that the picture shows.
    public var outputCount: Int
    /// Nodes standing for Outputs (fewer than ``outputCount`` when repeated structures were collapsed).
    public var outputNodeCount: Int
    /// Nodes that stand for several identical Outputs ("×N").
    public var collapsedNodeCount: Int
    /// Whether subscribers are drawn as nodes (above ``TraceGraphBuilder/subscriberNodeLimit`` Output
    /// nodes they are counted in their Output's node instead).
    public var drawsSubscribers: Bool

    /// One sentence for the user: `52 Outputs as 20 nodes (6 collapsed ×N), grouped by file`.
    public var description: String {
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
        return text
    }
}
