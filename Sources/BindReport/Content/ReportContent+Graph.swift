@_spi(Harness) import BindAnalysis
@_spi(Harness) import BindGraph
import BindTraceModel

// MARK: - The graph of a report read from a trace

extension ReportContent {
    /// The graph, drawn by the same builder as `bind-trace graph`, or why it is not drawn.
    struct GraphPicture {
        var svg: String?
        var note: String?
        var description: String?
        var graph: TraceGraph?
    }

    /// The moment the graph shows: the end, or (when no Output is alive there and released ones are
    /// not drawn) the busiest moment (``BusiestMoment``), with its state read again.
    struct DrawnMoment {
        var state: GraphState
        /// `nil`: the end.
        var sequence: UInt64?
        /// When each Output drawn was released after the moment (the slider's lifetimes).
        var releases: [UInt64: UInt64] = [:]
        /// What the graph shows, for its caption and title.
        var caption: String

        static func choose(_ path: String, end state: GraphState, events: UInt64, options: TraceReportOptions)
            throws(TraceReadError) -> DrawnMoment
        {
            let end = "Outputs at the end (event #\(events))"
            guard !options.includesReleasedOutputs, state.outputs.isEmpty,
                let busiest = try BusiestMoment.find(inTrace: path)
            else { return DrawnMoment(state: state, caption: end) }
            let drawn = try BusiestMoment.state(at: busiest.sequence, inTrace: path, options: options.analysis)
            return DrawnMoment(
                state: drawn.state, sequence: busiest.sequence, releases: drawn.releases,
                caption: "Outputs \(busiest.description); none is alive at the end (event #\(events))")
        }
    }

    /// Draws the graph of `moment` with at most ``TraceReportOptions/maximumGraphNodes`` Output nodes,
    /// those with findings first (as `bind-trace graph --max-nodes` does).
    static func drawGraph(moment: DrawnMoment, findings: [Finding], options: TraceReportOptions) -> GraphPicture {
        var builder = options.graph
        builder.maximumNodes = options.maximumGraphNodes
        // The interactive page names the moment above the picture (the slider changes it); a still
        // picture of one process among several carries it in its title.
        if builder.title == nil && !options.includesDetails { builder.title = moment.caption }
        let graph = builder.build(moment.state, findings: findings)
        var picture = GraphPicture(graph: graph)
        if graph.outputCount == 0 {
            picture.note = "empty: no Output was ever alive"
        } else {
            do {
                let rendered = try GraphvizRenderer().render(graph.document, format: .svg, layout: options.graphLayout)
                picture.svg = rendered.text
                picture.description =
                    "\(graph.description), layout \(rendered.layout)"
                    + (graph.omissionNote(maximumNodes: options.maximumGraphNodes).map { "; \($0)" } ?? "")
            } catch {
                picture.note = "not drawn: \(error)"
            }
        }
        return picture
    }
}
