import CGraphviz
import CGraphvizShim
import Foundation

/// The one owner of Graphviz in the process: its context, its lock and its messages.
///
/// Graphviz keeps global state (the plugin registry, the string pool of the root graph's
/// discipline, the error callback and error count), so every call into it, from building a graph to
/// freeing a render buffer, happens inside `lock`. The `gvContext` costs 14–19 ms to create, so it
/// is created once, on first use, and lives until the process exits (valgrind lists it as "still
/// reachable"). Each render frees its graph, its layout and its buffer on every path, thrown
/// errors included.
final class GraphvizContext: @unchecked Sendable {
    // @unchecked: all mutable state (`context` and `Self.capturedMessages`) is touched only with
    // `lock` held.

    static let shared = GraphvizContext()

    private let lock = NSLock()
    private var context: OpaquePointer?

    /// Text Graphviz handed to the message callback since the last `takeMessages()`.
    /// Global because the C callback cannot carry a context pointer; guarded by `lock`.
    nonisolated(unsafe) private static var capturedMessages = ""

    private init() {}

    /// Builds the graph `plan` describes, lays it out with `engine` and renders it as `format`.
    ///
    /// - Throws: ``GraphRenderError`` if Graphviz fails or reports an error at any step.
    func render(_ plan: GraphvizPlan, engine: String, format: String) throws(GraphRenderError) -> (
        data: Data, warnings: [String]
    ) {
        lock.lock()
        defer { lock.unlock() }

        let gvc = try contextLocked()
        Self.capturedMessages = ""
        bind_gv_reset_errors()

        guard let graph = bind_gv_open_digraph(plan.graphName) else {
            throw .graphConstructionFailed("a graph")
        }
        defer { agclose(graph) }
        try build(plan, into: graph)
        var messages = takeMessages()

        // gvFreeLayout is safe after a failed or absent layout, so it is always scheduled.
        defer { gvFreeLayout(gvc, graph) }
        let layoutStatus = gvLayout(gvc, graph, engine)
        messages.append(takeMessages())
        guard layoutStatus == 0 else {
            throw .layoutFailed(engine: engine, messages: messages.errors + messages.warnings)
        }

        var buffer: UnsafeMutablePointer<CChar>?
        var length = 0
        let renderStatus = bind_gv_render(gvc, graph, format, &buffer, &length)
        defer { if let buffer { gvFreeRenderData(buffer) } }
        messages.append(takeMessages())
        guard renderStatus == 0, let buffer else {
            throw .renderFailed(format: format, messages: messages.errors + messages.warnings)
        }
        guard messages.errors.isEmpty else { throw .graphvizErrors(messages.errors) }
        return (Data(bytes: buffer, count: length), messages.warnings)
    }

    // MARK: Context and messages

    private func contextLocked() throws(GraphRenderError) -> OpaquePointer {
        if let context { return context }
        // Installed before the context exists so that plugin-loading problems are captured too.
        bind_gv_install_message_handler { text in
            GraphvizContext.capturedMessages += String(cString: text)
            return 0
        }
        guard let created = gvContext() else { throw .contextUnavailable }
        context = created
        _ = takeMessages()
        return created
    }

    private func takeMessages() -> GraphvizMessages {
        defer { Self.capturedMessages = "" }
        return GraphvizMessages(parsing: Self.capturedMessages)
    }

    // MARK: Building

    /// Creates every object first, then sets HTML labels, then plain attributes.
    ///
    /// Why this order: cgraph pools strings per graph and keeps the "is HTML" mark on the pooled
    /// copy, so a plain value equal to an HTML label's markup must not enter the pool first, or the
    /// label would lose its mark. Cluster labels are set explicitly (even when empty) and the root
    /// graph's attributes last, because a subgraph inherits graph attributes its parent had when it
    /// was created.
    private func build(_ plan: GraphvizPlan, into graph: UnsafeMutablePointer<Agraph_t>) throws(GraphRenderError) {
        for attribute in plan.nodeDefaults where bind_gv_declare(graph, AGNODE, attribute.name, attribute.value) != 0 {
            throw .graphConstructionFailed("the node attribute \(attribute.name)")
        }
        for attribute in plan.edgeDefaults where bind_gv_declare(graph, AGEDGE, attribute.name, attribute.value) != 0 {
            throw .graphConstructionFailed("the edge attribute \(attribute.name)")
        }

        var subgraphs: [UnsafeMutablePointer<Agraph_t>] = []
        subgraphs.reserveCapacity(plan.clusters.count)
        for cluster in plan.clusters {
            guard let subgraph = bind_gv_subgraph(graph, cluster.name) else {
                throw .graphConstructionFailed("the cluster \(cluster.name)")
            }
            subgraphs.append(subgraph)
        }

        var nodes: [UnsafeMutablePointer<Agnode_t>] = []
        nodes.reserveCapacity(plan.nodes.count)
        for node in plan.nodes {
            let created = node.name.map { bind_gv_node(graph, $0) } ?? bind_gv_node(graph, nil)
            guard let created else { throw .graphConstructionFailed("a node") }
            if let cluster = node.cluster, bind_gv_add_to_subgraph(subgraphs[cluster], created) == nil {
                throw .graphConstructionFailed("a node in a cluster")
            }
            nodes.append(created)
        }

        var edges: [UnsafeMutablePointer<Agedge_t>] = []
        edges.reserveCapacity(plan.edges.count)
        for edge in plan.edges {
            guard let created = bind_gv_edge(graph, nodes[edge.tail], nodes[edge.head]) else {
                throw .graphConstructionFailed("an edge")
            }
            edges.append(created)
        }

        // HTML labels first (see above).
        for (subgraph, cluster) in zip(subgraphs, plan.clusters) {
            if let label = cluster.labelHTML {
                try setHTML(label, on: subgraph, root: graph)
            } else {
                try set("label", "", on: subgraph)
            }
        }
        for (created, node) in zip(nodes, plan.nodes) {
            let isHTML = try node.labelHTML.map { html throws(GraphRenderError) in
                try setHTML(html, on: created, root: graph)
            }
            if isHTML != true { try set("label", node.plainLabel, on: created) }
        }
        for (created, edge) in zip(edges, plan.edges) {
            if let label = edge.labelHTML { try setHTML(label, on: created, root: graph) }
        }
        if let label = plan.graphLabelHTML { try setHTML(label, on: graph, root: graph) }

        // Then plain attributes, the root graph's last.
        for (subgraph, cluster) in zip(subgraphs, plan.clusters) {
            for attribute in cluster.attributes { try set(attribute.name, attribute.value, on: subgraph) }
        }
        for (created, node) in zip(nodes, plan.nodes) {
            for attribute in node.attributes { try set(attribute.name, attribute.value, on: created) }
        }
        for (created, edge) in zip(edges, plan.edges) {
            for attribute in edge.attributes { try set(attribute.name, attribute.value, on: created) }
        }
        for attribute in plan.graphAttributes { try set(attribute.name, attribute.value, on: graph) }
    }

    private func set(_ name: String, _ value: String, on object: UnsafeMutableRawPointer) throws(GraphRenderError) {
        guard bind_gv_set(object, name, value) == 0 else {
            throw .graphConstructionFailed("the attribute \(name)")
        }
    }

    /// Sets `label` to HTML-like markup; `false` if the string pool returned an unmarked copy.
    @discardableResult
    private func setHTML(
        _ html: String, on object: UnsafeMutableRawPointer, root: UnsafeMutablePointer<Agraph_t>
    ) throws(GraphRenderError) -> Bool {
        let status = bind_gv_set_html(root, object, "label", html)
        guard status >= 0 else { throw .graphConstructionFailed("a label") }
        return status == 1
    }
}

/// Graphviz's messages, split into errors and warnings.
///
/// The callback receives pieces: `"Error"` or `"Warning"`, then `": "`, then the text, and
/// continuation lines without a prefix; a message ends with a newline.
struct GraphvizMessages: Equatable, Sendable {
    var errors: [String] = []
    var warnings: [String] = []

    init(errors: [String] = [], warnings: [String] = []) {
        self.errors = errors
        self.warnings = warnings
    }

    init(parsing text: String) {
        var isError = false
        var current: String?
        func finish() {
            guard let message = current, !message.isEmpty else { return }
            let line = GraphLabel.singleLine(message, limits: .singleLine)
            if isError { errors.append(line) } else { warnings.append(line) }
            current = nil
        }
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: true) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("Error: ") || line.hasPrefix("Warning: ") {
                finish()
                isError = line.hasPrefix("Error: ")
                current = String(line.drop { $0 != ":" }.dropFirst(2))
            } else if !line.isEmpty {
                current = current.map { $0 + " " + line } ?? line
            }
        }
        finish()
    }

    mutating func append(_ other: GraphvizMessages) {
        errors += other.errors
        warnings += other.warnings
    }
}
