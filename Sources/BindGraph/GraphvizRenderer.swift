import Foundation

/// Draws a ``GraphDocument`` with Graphviz (libgvc) as SVG, DOT, PNG or PDF.
///
/// The renderer is a cheap value: every instance shares one process-wide Graphviz context, created
/// on first use, and every Graphviz call in the process runs under one lock (Graphviz is not
/// thread-safe), so renderers may be used from any thread or task; renders run one at a time.
///
/// ```swift
/// let rendered = try GraphvizRenderer().render(document, format: .svg)
/// try rendered.data.write(to: URL(filePath: "graph.svg"))
/// for warning in rendered.warnings { print("graphviz:", warning) }
/// ```
@_spi(Harness) public struct GraphvizRenderer: Sendable {
    /// With ``GraphLayout/automatic``, documents with more nodes than this are laid out by `sfdp`,
    /// smaller ones by `dot`. Measured on this project's random DAGs (docs/graph-rendering.md),
    /// `dot` takes 0.5 s at 500 nodes, 1.1 s at 1,000 and 3.8 s at 2,000, growing as about n^2,
    /// while `sfdp` stays near 2 s up to 2,000 nodes.
    public var automaticLayoutNodeLimit: Int

    /// The default ``automaticLayoutNodeLimit``.
    public static let defaultAutomaticLayoutNodeLimit = 1_000

    public init(automaticLayoutNodeLimit: Int = GraphvizRenderer.defaultAutomaticLayoutNodeLimit) {
        self.automaticLayoutNodeLimit = automaticLayoutNodeLimit
    }

    /// Lays out and draws `document`.
    ///
    /// - Parameters:
    ///   - document: What to draw. Text in it may be hostile; it is sanitised and escaped.
    ///   - format: The output format; ``GraphFormat/dot`` and ``GraphFormat/canonicalDOT`` are DOT
    ///     text written by Graphviz itself.
    ///   - layout: The layout engine, or ``GraphLayout/automatic`` to choose by size.
    /// - Returns: The bytes, with the engine actually used and any Graphviz warnings.
    /// - Throws: ``GraphRenderError`` for an inconsistent document (duplicate ids, edges to missing
    ///   nodes), an unknown format or engine, or errors reported by Graphviz.
    /// - Complexity: Dominated by the layout: roughly O(n^2)–O(n^2.5) for `dot`, O(n log n) for `sfdp`.
    public func render(
        _ document: GraphDocument,
        format: GraphFormat = .svg,
        layout: GraphLayout = .automatic
    ) throws(GraphRenderError) -> RenderedGraph {
        let engine = resolvedLayout(layout, for: document)
        let plan = try GraphvizPlan(document, engine: engine)
        let output = try GraphvizContext.shared.render(plan, engine: engine.rawValue, format: format.rawValue)
        return RenderedGraph(data: output.data, format: format, layout: engine, warnings: output.warnings)
    }

    /// The engine ``render(_:format:layout:)`` uses for `layout` and `document`:
    /// ``GraphLayout/automatic`` becomes ``GraphLayout/dot`` or ``GraphLayout/sfdp``.
    package func resolvedLayout(_ layout: GraphLayout, for document: GraphDocument) -> GraphLayout {
        guard layout == .automatic else { return layout }
        return document.nodes.count > automaticLayoutNodeLimit ? .sfdp : .dot
    }
}

/// An output format Graphviz can render. The raw value is Graphviz's own name (`-T` option), so
/// any format of the installed Graphviz can be named: `GraphFormat(rawValue: "json")`.
@_spi(Harness) public struct GraphFormat: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Scalable vector graphics; nodes are `<g class="node">` groups titled with the node id.
    public static let svg = GraphFormat(rawValue: "svg")
    /// DOT text with the layout's positions (`pos`, `bb`, sizes).
    public static let dot = GraphFormat(rawValue: "dot")
    /// DOT text as built, without positions; feed it to `dot`/`sfdp` on the command line.
    public static let canonicalDOT = GraphFormat(rawValue: "canon")
    /// Raster image (Cairo).
    public static let png = GraphFormat(rawValue: "png")
    /// Vector document (Cairo).
    public static let pdf = GraphFormat(rawValue: "pdf")

    public var description: String { rawValue }

    /// Whether the output is text (UTF-8) rather than binary.
    public var isText: Bool {
        [.svg, .dot, .canonicalDOT, GraphFormat(rawValue: "xdot"), GraphFormat(rawValue: "json")].contains(self)
    }
}

/// A Graphviz layout engine, or ``automatic`` to choose by graph size. The raw value is Graphviz's
/// own name (`-K` option), so other installed engines can be named: `GraphLayout(rawValue: "neato")`.
@_spi(Harness) public struct GraphLayout: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Layered drawing that shows direction well; slow beyond about a thousand nodes.
    public static let dot = GraphLayout(rawValue: "dot")
    /// Multiscale force-directed drawing; handles tens of thousands of nodes.
    public static let sfdp = GraphLayout(rawValue: "sfdp")
    /// ``dot`` up to ``GraphvizRenderer/automaticLayoutNodeLimit`` nodes, ``sfdp`` above.
    public static let automatic = GraphLayout(rawValue: "auto")

    public var description: String { rawValue }
}

/// The output of one render.
@_spi(Harness) public struct RenderedGraph: Sendable {
    /// The file contents, exactly as Graphviz produced them.
    public var data: Data
    public var format: GraphFormat
    /// The engine that laid the graph out (never ``GraphLayout/automatic``).
    public var layout: GraphLayout
    /// Graphviz's warnings, one message each (e.g. a font that could not be found).
    public var warnings: [String]

    /// The output as a string, for text formats (SVG, DOT); `nil` if it is not UTF-8.
    public var text: String? { String(data: data, encoding: .utf8) }
}
