/// A neutral description of a picture of a directed graph: what to draw, not how Graphviz draws it.
///
/// Build one from whatever you want to show (the trace graph builder turns Outputs and bindings into
/// nodes and edges), then hand it to ``GraphvizRenderer``. All text is treated as untrusted: the
/// renderer sanitises, escapes and truncates it (see `GraphLabel`), so labels may come straight from a
/// trace file.
///
/// ```swift
/// var document = GraphDocument(title: "Sign-in screen", direction: .leftToRight)
/// document.clusters = [.init(key: "vm", title: "SignInViewModel")]
/// document.nodes = [
///     .init(id: "o1", title: "email", lines: ["Relay<String>", "2 subscribers"], cluster: "vm"),
///     .init(id: "o2", title: "isValid", lines: ["map"], fillColor: .paleGreen, cluster: "vm"),
/// ]
/// document.edges = [.init(from: "o1", to: "o2", label: "map")]
/// let svg = try GraphvizRenderer().render(document, format: .svg)
/// ```
@_spi(Harness) public struct GraphDocument: Hashable, Sendable {
    /// A caption drawn above the picture.
    public var title: String?
    /// The direction edges flow in (Graphviz `rankdir`, honoured by the `dot` layout).
    public var direction: Direction
    /// The nodes; their ``Node/id``s must be unique.
    public var nodes: [Node]
    /// The edges between ``nodes``; both ends must name a node's ``Node/id``.
    public var edges: [Edge]
    /// Titles of the boxes that group nodes; a node joins one through ``Node/cluster``.
    public var clusters: [Cluster]
    /// A key explaining colours and edge styles, drawn as its own box; `nil` draws none.
    public var legend: Legend?

    /// Creates a document; every part can also be filled in afterwards.
    public init(
        title: String? = nil,
        direction: Direction = .topToBottom,
        nodes: [Node] = [],
        edges: [Edge] = [],
        clusters: [Cluster] = [],
        legend: Legend? = nil
    ) {
        self.title = title
        self.direction = direction
        self.nodes = nodes
        self.edges = edges
        self.clusters = clusters
        self.legend = legend
    }
}

extension GraphDocument {
    /// The direction edges flow in.
    @_spi(Harness) public enum Direction: String, Hashable, Sendable, CaseIterable {
        case topToBottom = "TB"
        case leftToRight = "LR"
        case bottomToTop = "BT"
        case rightToLeft = "RL"
    }

    /// One box (or other shape) in the picture.
    @_spi(Harness) public struct Node: Hashable, Sendable {
        /// Stable identifier, unique in the document; edges refer to it. It is also the Graphviz
        /// node name, shown as the SVG `<title>` (sanitised to one line; `\` is shown as `⧵`).
        public var id: String
        /// A first line in bold; `nil` for none.
        public var title: String?
        /// Lines under the title (in a smaller font when there is a title). A string containing line
        /// breaks counts as several lines. With neither title nor lines, the node shows its ``id``.
        public var lines: [String]
        public var shape: Shape
        public var style: NodeStyle
        /// Background colour; drawn only when ``style`` contains ``NodeStyle/filled``.
        public var fillColor: GraphColor?
        public var borderColor: GraphColor?
        public var fontColor: GraphColor?
        /// Text shown when the pointer rests on the node (SVG `<a xlink:title>`).
        public var tooltip: String?
        /// The ``Cluster/key`` of the box this node is drawn in; `nil` for none. A key with no
        /// matching ``GraphDocument/clusters`` entry still groups its nodes, in an untitled box.
        public var cluster: String?
        /// Draws the node washed out (translucent colours, grey text): for things that are gone or
        /// out of focus, such as a deallocated Output.
        public var faded: Bool

        public init(
            id: String,
            title: String? = nil,
            lines: [String] = [],
            shape: Shape = .box,
            style: NodeStyle = [.filled, .rounded],
            fillColor: GraphColor? = .paleBlue,
            borderColor: GraphColor? = nil,
            fontColor: GraphColor? = nil,
            tooltip: String? = nil,
            cluster: String? = nil,
            faded: Bool = false
        ) {
            self.id = id
            self.title = title
            self.lines = lines
            self.shape = shape
            self.style = style
            self.fillColor = fillColor
            self.borderColor = borderColor
            self.fontColor = fontColor
            self.tooltip = tooltip
            self.cluster = cluster
            self.faded = faded
        }
    }

    /// An arrow from one node to another. Several edges between the same nodes are all drawn.
    @_spi(Harness) public struct Edge: Hashable, Sendable {
        /// The ``Node/id`` the edge leaves.
        public var from: String
        /// The ``Node/id`` the edge points at.
        public var to: String
        /// Text drawn beside the edge (one line, truncated).
        public var label: String?
        public var style: EdgeStyle
        public var color: GraphColor?
        /// Line width in points; `nil` for Graphviz's default of 1.
        public var penWidth: Double?
        public var arrowhead: Arrowhead
        /// Text shown when the pointer rests on the edge.
        public var tooltip: String?
        /// Draws the edge washed out, like ``Node/faded``.
        public var faded: Bool

        public init(
            from: String,
            to: String,
            label: String? = nil,
            style: EdgeStyle = .solid,
            color: GraphColor? = nil,
            penWidth: Double? = nil,
            arrowhead: Arrowhead = .normal,
            tooltip: String? = nil,
            faded: Bool = false
        ) {
            self.from = from
            self.to = to
            self.label = label
            self.style = style
            self.color = color
            self.penWidth = penWidth
            self.arrowhead = arrowhead
            self.tooltip = tooltip
            self.faded = faded
        }
    }

    /// A titled box around the nodes whose ``Node/cluster`` equals ``key``.
    @_spi(Harness) public struct Cluster: Hashable, Sendable {
        public var key: String
        public var title: String?
        public var fillColor: GraphColor?
        public var borderColor: GraphColor?

        public init(key: String, title: String? = nil, fillColor: GraphColor? = nil, borderColor: GraphColor? = nil) {
            self.key = key
            self.title = title
            self.fillColor = fillColor
            self.borderColor = borderColor
        }
    }

    /// A key drawn in its own box: one sample node per node colour, one sample arrow per edge style.
    ///
    /// ```swift
    /// document.legend = .init(
    ///     nodes: [.init(label: "alive", fillColor: .paleBlue), .init(label: "leaked", fillColor: .paleRed)],
    ///     edges: [.init(label: "binding"), .init(label: "flatMap inner", style: .dashed)]
    /// )
    /// ```
    @_spi(Harness) public struct Legend: Hashable, Sendable {
        public var title: String
        public var nodes: [NodeSample]
        public var edges: [EdgeSample]

        public init(title: String = "Legend", nodes: [NodeSample] = [], edges: [EdgeSample] = []) {
            self.title = title
            self.nodes = nodes
            self.edges = edges
        }

        /// A node drawn the way the document draws nodes of one kind, labelled with what the kind means.
        public struct NodeSample: Hashable, Sendable {
            public var label: String
            public var shape: Shape
            public var style: NodeStyle
            public var fillColor: GraphColor?
            public var borderColor: GraphColor?
            public var faded: Bool

            public init(
                label: String,
                shape: Shape = .box,
                style: NodeStyle = [.filled, .rounded],
                fillColor: GraphColor? = .paleBlue,
                borderColor: GraphColor? = nil,
                faded: Bool = false
            ) {
                self.label = label
                self.shape = shape
                self.style = style
                self.fillColor = fillColor
                self.borderColor = borderColor
                self.faded = faded
            }
        }

        /// An arrow drawn the way the document draws edges of one kind, labelled with what the kind means.
        public struct EdgeSample: Hashable, Sendable {
            public var label: String
            public var style: EdgeStyle
            public var color: GraphColor?
            public var penWidth: Double?
            public var arrowhead: Arrowhead

            public init(
                label: String,
                style: EdgeStyle = .solid,
                color: GraphColor? = nil,
                penWidth: Double? = nil,
                arrowhead: Arrowhead = .normal
            ) {
                self.label = label
                self.style = style
                self.color = color
                self.penWidth = penWidth
                self.arrowhead = arrowhead
            }
        }
    }

    /// A node's outline (Graphviz `shape`).
    @_spi(Harness) public enum Shape: String, Hashable, Sendable, CaseIterable {
        case box
        case ellipse
        case circle
        case doubleCircle = "doublecircle"
        case diamond
        case hexagon
        case octagon
        case note
        case component
        case cylinder
        /// Text only, no outline.
        case plainText = "plaintext"
    }

    /// How a node's outline is drawn (Graphviz `style`); combine freely, e.g. `[.filled, .dashed]`.
    @_spi(Harness) public struct NodeStyle: OptionSet, Hashable, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        public static let filled = NodeStyle(rawValue: 1 << 0)
        public static let rounded = NodeStyle(rawValue: 1 << 1)
        public static let dashed = NodeStyle(rawValue: 1 << 2)
        public static let dotted = NodeStyle(rawValue: 1 << 3)
        public static let bold = NodeStyle(rawValue: 1 << 4)
    }

    /// How an edge's line is drawn.
    @_spi(Harness) public enum EdgeStyle: String, Hashable, Sendable, CaseIterable {
        case solid
        case dashed
        case dotted
        case bold
    }

    /// The mark at the head of an edge (Graphviz `arrowhead`).
    @_spi(Harness) public enum Arrowhead: String, Hashable, Sendable, CaseIterable {
        case normal
        case empty
        case vee
        case dot
        case openDot = "odot"
        case diamond
        case tee
        case none
    }
}

extension GraphDocument.NodeStyle {
    /// The Graphviz `style` value, e.g. `"filled,rounded"`.
    var graphvizValue: String {
        let names: [(GraphDocument.NodeStyle, String)] = [
            (.filled, "filled"), (.rounded, "rounded"), (.dashed, "dashed"), (.dotted, "dotted"), (.bold, "bold"),
        ]
        return names.filter { contains($0.0) }.map(\.1).joined(separator: ",")
    }
}
