import ArgumentParser
@_spi(Harness) import BindGraph

/// How a graph is laid out and grouped: the options `graph` and `report` share, declared once.
struct GraphOptions: ParsableArguments {
    @Option(help: "Layout engine: dot (layered), sfdp (scales to many thousands of nodes) or auto (by size).")
    var layout: LayoutChoice = .auto

    @Option(help: "Group nodes into boxes by source file, by module, or not (auto: by file when there are several).")
    var cluster: TraceGraphBuilder.Clustering = .automatic

    @Option(help: "Draw repeated identical structures as one ×N node: auto (3 or more), always (2 or more), never.")
    var collapse: TraceGraphBuilder.Collapsing = .automatic

    @Option(
        help: ArgumentHelp(
            "Draw at most this many Output nodes, those with findings first; the rest are left out and counted.",
            valueName: "count"))
    var maxNodes: Int = TraceGraphBuilder.defaultMaximumNodes

    func validate() throws {
        if maxNodes < 1 { throw ValidationError("--max-nodes takes a positive count, not \(maxNodes)") }
    }

    /// A builder with these options, titled `title` when given.
    func builder(title: String? = nil, maximumNodes: Int? = nil) -> TraceGraphBuilder {
        TraceGraphBuilder(title: title, clustering: cluster, collapsing: collapse, maximumNodes: maximumNodes)
    }
}

/// The layout engines the graph options offer.
enum LayoutChoice: String, ExpressibleByArgument, CaseIterable {
    case dot, sfdp, auto

    var graphLayout: GraphLayout {
        switch self {
        case .dot: .dot
        case .sfdp: .sfdp
        case .auto: .automatic
        }
    }
}

extension TraceGraphBuilder.Clustering: ExpressibleByArgument {}
extension TraceGraphBuilder.Collapsing: ExpressibleByArgument {}
