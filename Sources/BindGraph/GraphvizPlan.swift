import BindText

/// Everything Graphviz will be told about one document, decided in plain Swift before any C call:
/// which objects exist, in what order, with which attributes, all text already sanitised and escaped.
///
/// Keeping this separate from ``GraphvizContext`` means the decisions (escaping, fading, tuning for
/// large graphs) are testable without Graphviz, and the C side only walks a list.
struct GraphvizPlan: Sendable {
    typealias Attributes = [(name: String, value: String)]

    struct Cluster: Sendable {
        /// Graphviz draws a box only for subgraphs whose name starts with "cluster".
        var name: String
        var labelHTML: String?
        var attributes: Attributes
    }

    struct Node: Sendable {
        /// `nil` for an anonymous node (legend samples), which can never clash with a document id.
        var name: String?
        /// `nil` for no label at all (Graphviz rejects empty HTML-like labels).
        var labelHTML: String?
        /// Fallback label text with Graphviz line breaks, used if the HTML label cannot be stored.
        var plainLabel: String
        var attributes: Attributes
        var cluster: Int?
    }

    struct Edge: Sendable {
        var tail: Int
        var head: Int
        var labelHTML: String?
        var attributes: Attributes
    }

    var graphName: String
    var graphLabelHTML: String?
    var graphAttributes: Attributes
    var nodeDefaults: Attributes
    var edgeDefaults: Attributes
    var clusters: [Cluster]
    var nodes: [Node]
    var edges: [Edge]
}

extension GraphvizPlan {
    /// Opacity of a faded node's or edge's colours.
    static let fadedOpacity = 0.3
    static let fontName = "Helvetica"
    static let detailPointSize = 10

    /// Plans `document` for layout `engine` (already resolved: `dot`, `sfdp` or another engine).
    ///
    /// - Throws: ``GraphRenderError/duplicateNodeID(_:)`` or ``GraphRenderError/unknownNode(_:edgeIndex:)``.
    init(_ document: GraphDocument, engine: GraphLayout) throws(GraphRenderError) {
        graphName = "bind"
        graphLabelHTML = document.title.map {
            GraphLabel.html(title: GraphLabel.singleLine($0), lines: [], pointSize: 16)
        }
        graphAttributes = [("rankdir", document.direction.rawValue), ("fontname", Self.fontName)]
        if document.title != nil { graphAttributes.append(("labelloc", "t")) }
        graphAttributes += Self.tuning(for: engine, nodeCount: document.nodes.count)
        nodeDefaults = [("fontname", Self.fontName), ("fontsize", "12"), ("margin", "0.12,0.06")]
        edgeDefaults = [("fontname", Self.fontName), ("fontsize", "10")]
        clusters = []
        nodes = []
        edges = []

        var clusterIndex: [String: Int] = [:]
        for cluster in document.clusters where clusterIndex[cluster.key] == nil {
            clusterIndex[cluster.key] = clusters.count
            clusters.append(Self.cluster(cluster, index: clusters.count))
        }

        var nodeIndex: [String: Int] = [:]
        nodeIndex.reserveCapacity(document.nodes.count)
        for node in document.nodes {
            let name = GraphLabel.identifier(node.id)
            guard nodeIndex[name] == nil else { throw .duplicateNodeID(node.id) }
            nodeIndex[name] = nodes.count
            let cluster = node.cluster.map { key in
                if let index = clusterIndex[key] { return index }
                clusterIndex[key] = clusters.count
                clusters.append(Self.cluster(.init(key: key), index: clusters.count))
                return clusters.count - 1
            }
            nodes.append(Self.node(node, name: name, cluster: cluster))
        }

        for (index, edge) in document.edges.enumerated() {
            guard let tail = nodeIndex[GraphLabel.identifier(edge.from)] else {
                throw .unknownNode(edge.from, edgeIndex: index)
            }
            guard let head = nodeIndex[GraphLabel.identifier(edge.to)] else {
                throw .unknownNode(edge.to, edgeIndex: index)
            }
            edges.append(Self.edge(edge, tail: tail, head: head))
        }

        if let legend = document.legend, !(legend.nodes.isEmpty && legend.edges.isEmpty) {
            addLegend(legend)
        }
    }

    // MARK: Large graphs

    /// Node count from which `dot` gets the cheaper settings below.
    static let largeDotGraph = 300
    /// Node count from which `sfdp` leaves node overlaps alone.
    static let hugeSfdpGraph = 2_000

    /// Attributes that keep layout time in check as graphs grow (measurements in docs/graph-rendering.md).
    ///
    /// - `dot`, from `largeDotGraph` nodes: fewer network-simplex iterations (`nslimit`,
    ///   `nslimit1`), fewer crossing-minimisation passes (`mclimit`, `remincross=false`) and a
    ///   smaller search (`searchsize`). Measured on random DAGs: 1,000 nodes 3.6 s → 0.9 s,
    ///   2,000 nodes 13.2 s → 5.7 s, for somewhat more edge crossings. Straight or polyline edges
    ///   (`splines`) were measured too and saved nothing, so edges stay curved.
    /// - `sfdp`: `overlap=prism` keeps boxes from covering each other; from `hugeSfdpGraph` nodes
    ///   overlaps are left alone (prism costs 3× at 1,000 nodes and 5× at 10,000, and nobody
    ///   reads thousands of labels anyway); edges are straight lines at every size.
    static func tuning(for engine: GraphLayout, nodeCount: Int) -> Attributes {
        switch engine {
        case .dot where nodeCount >= largeDotGraph:
            return [
                ("nslimit", "0.2"), ("nslimit1", "0.2"), ("mclimit", "0.1"), ("remincross", "false"),
                ("searchsize", "5"),
            ]
        case .sfdp:
            let overlap: Attributes = nodeCount >= hugeSfdpGraph ? [] : [("overlap", "prism")]
            return overlap + [("splines", "false"), ("outputorder", "edgesfirst")]
        default:
            return []
        }
    }

    // MARK: Objects

    private static func cluster(_ cluster: GraphDocument.Cluster, index: Int) -> Cluster {
        Cluster(
            name: "cluster_\(index)",
            labelHTML: cluster.title.map {
                GraphLabel.html(title: GraphLabel.singleLine($0), lines: [], pointSize: 12)
            },
            attributes: clusterAttributes(fill: cluster.fillColor, border: cluster.borderColor)
        )
    }

    private static func clusterAttributes(fill: GraphColor?, border: GraphColor?) -> Attributes {
        var attributes: Attributes = [("style", fill == nil ? "rounded" : "rounded,filled")]
        if let fill { attributes.append(("fillcolor", fill.hexString)) }
        // Subgraphs are created before the root graph gets its font, so they need their own.
        return attributes + [("color", (border ?? .gray).hexString), ("fontname", fontName)]
    }

    private static func node(_ node: GraphDocument.Node, name: String, cluster: Int?) -> Node {
        let title = node.title.map { GraphLabel.singleLine($0, limits: .shortLine) }
        var lines = GraphLabel.lines(node.lines)
        if title == nil, lines.isEmpty { lines = [name] }
        let html = GraphLabel.html(
            title: title, lines: lines, pointSize: 12, detailPointSize: title == nil ? nil : detailPointSize)
        let plain = ([title].compactMap { $0 } + lines).map(Escape.dotLabel).joined(separator: "\\n")

        var attributes: Attributes = [("shape", node.shape.rawValue)]
        let style = node.style.graphvizValue
        if !style.isEmpty { attributes.append(("style", style)) }
        attributes += colors(
            fill: node.fillColor, border: node.borderColor, font: node.fontColor, faded: node.faded)
        if let tooltip = node.tooltip {
            attributes.append(("tooltip", GraphLabel.plainAttribute(tooltip)))
        }
        return Node(name: name, labelHTML: html, plainLabel: plain, attributes: attributes, cluster: cluster)
    }

    private static func edge(_ edge: GraphDocument.Edge, tail: Int, head: Int) -> Edge {
        var attributes = edgeAttributes(
            style: edge.style, color: edge.color, penWidth: edge.penWidth, arrowhead: edge.arrowhead,
            faded: edge.faded)
        if let tooltip = edge.tooltip {
            attributes.append(("tooltip", GraphLabel.plainAttribute(tooltip)))
        }
        let label = edge.label.map {
            GraphLabel.html(title: nil, lines: [GraphLabel.singleLine($0, limits: .shortLine)], pointSize: 10)
        }
        return Edge(tail: tail, head: head, labelHTML: label, attributes: attributes)
    }

    private static func colors(fill: GraphColor?, border: GraphColor?, font: GraphColor?, faded: Bool) -> Attributes {
        let opacity = faded ? fadedOpacity : 1
        var attributes: Attributes = []
        if let fill { attributes.append(("fillcolor", fill.withOpacity(opacity).hexString)) }
        if let border = border ?? (faded ? .black : nil) {
            attributes.append(("color", border.withOpacity(opacity).hexString))
        }
        if let font = faded ? .gray : font { attributes.append(("fontcolor", font.hexString)) }
        return attributes
    }

    private static func edgeAttributes(
        style: GraphDocument.EdgeStyle, color: GraphColor?, penWidth: Double?,
        arrowhead: GraphDocument.Arrowhead, faded: Bool
    ) -> Attributes {
        var attributes: Attributes = []
        if style != .solid { attributes.append(("style", style.rawValue)) }
        if let color = color ?? (faded ? .black : nil) {
            attributes.append(("color", color.withOpacity(faded ? fadedOpacity : 1).hexString))
        }
        if faded { attributes.append(("fontcolor", GraphColor.gray.hexString)) }
        if let penWidth, penWidth.isFinite, penWidth >= 0 {
            attributes.append(("penwidth", String(penWidth)))
        }
        if arrowhead != .normal { attributes.append(("arrowhead", arrowhead.rawValue)) }
        return attributes
    }

    // MARK: Legend

    /// The legend is one more cluster holding anonymous sample nodes: a node per colour, and per
    /// edge style an arrow between two small text nodes, the first carrying the explanation.
    private mutating func addLegend(_ legend: GraphDocument.Legend) {
        let cluster = clusters.count
        clusters.append(
            Cluster(
                name: "cluster_legend",
                labelHTML: GraphLabel.html(title: GraphLabel.singleLine(legend.title), lines: [], pointSize: 12),
                attributes: Self.clusterAttributes(fill: .white, border: .gray)
            ))
        for sample in legend.nodes {
            let text = GraphLabel.singleLine(sample.label, limits: .shortLine)
            var attributes: Attributes = [("shape", sample.shape.rawValue)]
            let style = sample.style.graphvizValue
            if !style.isEmpty { attributes.append(("style", style)) }
            attributes += Self.colors(
                fill: sample.fillColor, border: sample.borderColor, font: nil, faded: sample.faded)
            nodes.append(
                Node(
                    name: nil, labelHTML: GraphLabel.html(title: nil, lines: [text], pointSize: 10),
                    plainLabel: Escape.dotLabel(text), attributes: attributes, cluster: cluster))
        }
        for sample in legend.edges {
            let text = GraphLabel.singleLine(sample.label, limits: .shortLine)
            let tail = nodes.count
            nodes.append(
                Node(
                    name: nil, labelHTML: GraphLabel.html(title: nil, lines: [text], pointSize: 10),
                    plainLabel: Escape.dotLabel(text),
                    attributes: [("shape", "plaintext"), ("fontsize", "10")], cluster: cluster))
            nodes.append(
                Node(
                    name: nil, labelHTML: nil, plainLabel: "",
                    attributes: [("shape", "point"), ("width", "0.05")], cluster: cluster))
            edges.append(
                Edge(
                    tail: tail, head: tail + 1, labelHTML: nil,
                    attributes: Self.edgeAttributes(
                        style: sample.style, color: sample.color, penWidth: sample.penWidth,
                        arrowhead: sample.arrowhead, faded: false)))
        }
    }
}
