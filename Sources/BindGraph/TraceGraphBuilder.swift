@_spi(Harness) import BindAnalysis
import BindTraceModel

/// Turns the binding graph of a trace (a ``GraphState``) and its findings into a ``GraphDocument``.
///
/// - a node per Output (its label, else its kind and id; value type, creation line, updates, last
///   value), coloured by kind: Output, Relay, derived;
/// - an edge per operator dependency, styled by operator (legend included); a flatMap's current
///   inner differs from its past ones;
/// - a small node per subscriber hanging off its Output: closures by bind line, Binder targets by
///   type, each with a count. Operators' own subscriptions are the edges, not nodes;
/// - findings: leaked Outputs and subscriptions in red, feedback and structural cycles in red along
///   their path, what keeps each leak alive (``ReferencePath``) thick and orange from the live source
///   down to the leak, dangling binders greyed out;
/// - repeated identical structures (same kind, type, line, label, findings, subscribers and the
///   same shape of edges around them) collapsed into one "×N" node (see ``Collapsing``).
///
/// ```swift
/// let result = try TraceAnalyzer.analyze(path: "app.trace")
/// let graph = TraceGraphBuilder().build(result.state, findings: result.findings)
/// let svg = try GraphvizRenderer().render(graph.document, format: .svg)
/// ```
/// - Complexity: O((*n* + *e*) log *n*) in Outputs, edges and subscriptions.
package struct TraceGraphBuilder: Sendable {
    /// How nodes are grouped into boxes.
    package enum Clustering: String, Sendable, CaseIterable {
        /// By source file when the Outputs and subscribers come from several files, else none;
        /// none above ``TraceGraphBuilder/subscriberNodeLimit`` nodes (`sfdp` ignores boxes).
        case automatic = "auto"
        /// One box per source file of the creation or bind line.
        case file
        /// One box per module.
        case module
        case none
    }

    /// Whether repeated identical structures become one node with a count.
    package enum Collapsing: String, Sendable, CaseIterable {
        /// Collapse groups of ``TraceGraphBuilder/automaticCollapseMinimum`` or more identical Outputs.
        case automatic = "auto"
        /// Collapse any two or more identical Outputs.
        case always
        /// Draw every Output.
        case never
    }

    package var title: String?
    package var clustering: Clustering
    package var collapsing: Collapsing
    /// Above this many Output nodes, subscribers are counted on their Output instead of drawn.
    package var subscriberNodeLimit: Int
    /// At most this many Output nodes are drawn (those with findings first, then by creation); the rest
    /// are left out and counted in ``TraceGraph/omittedOutputs``. `nil`: no limit. Layout time grows
    /// faster than the node count, so a graph meant for Graphviz should have one (`bind-trace` uses
    /// ``defaultMaximumNodes``).
    package var maximumNodes: Int?

    /// The node limit of `bind-trace graph` and `report` unless raised: `sfdp` lays out 4,000 nodes in
    /// about 10 s on a small machine.
    package static let defaultMaximumNodes = 4_000

    /// Nodes of the legend box, included in every document.
    package static var legendNodeCount: Int { TraceGraphStyle.legend().nodes.count }

    /// The smallest group ``Collapsing/automatic`` collapses.
    package static let automaticCollapseMinimum = 3

    package init(
        title: String? = nil, clustering: Clustering = .automatic, collapsing: Collapsing = .automatic,
        subscriberNodeLimit: Int = 1_000, maximumNodes: Int? = nil
    ) {
        self.maximumNodes = maximumNodes
        self.title = title
        self.clustering = clustering
        self.collapsing = collapsing
        self.subscriberNodeLimit = subscriberNodeLimit
    }

    /// Builds the picture of `state` with `findings` drawn on it.
    ///
    /// - Parameters:
    ///   - state: the graph at one moment (``AnalysisResult/state``); released Outputs in it
    ///     (``AnalysisOptions/keepsReleasedOutputs``) are drawn faded.
    ///   - findings: what the analysis found (``AnalysisResult/findings``); ids not in `state` are ignored.
    package func build(_ state: GraphState, findings: [Finding]) -> TraceGraph {
        let marks = FindingMarks(findings)
        let subscribers = subscriberGroups(state, marks: marks)
        var groups = OutputGrouping(
            state: state, marks: marks, subscribers: subscribers, minimumGroup: collapseMinimum)
        let groupCount = groups.nodeCount
        let omittedOutputs = limitNodes(&groups, marks: marks, subscribers: subscribers)
        let drawsSubscribers = groups.nodeCount <= subscriberNodeLimit
        let parts = Parts(
            state: state, marks: marks, subscribers: subscribers, groups: groups,
            cycles: CyclePaths(findings: findings, state: state),
            keptAlive: KeptAlivePaths(findings: findings, state: state), drawsSubscribers: drawsSubscribers,
            clustering: resolveClustering(state, drawsSubscribers: drawsSubscribers))

        var document = GraphDocument(title: title, direction: .leftToRight)
        addOutputNodes(parts, to: &document)
        addOperatorEdges(parts, to: &document)
        let subscriberNodes = drawsSubscribers ? addSubscribers(parts, to: &document) : [:]
        addUnboundLoopSteps(parts, to: &document)
        let legend = TraceGraphStyle.legend()
        document.nodes += legend.nodes
        document.edges += legend.edges
        document.clusters = clusters(document.nodes, clustering: parts.clustering)
        return TraceGraph(
            document: document, clustering: parts.clustering, outputCount: state.outputs.count,
            outputNodeCount: groups.groups.count,
            collapsedNodeCount: groups.groups.filter { $0.members.count > 1 }.count,
            drawsSubscribers: drawsSubscribers, omittedOutputs: omittedOutputs,
            omittedNodes: groupCount - groups.nodeCount, subscriberNodes: subscriberNodes)
    }

    /// What the steps of ``build(_:findings:)`` share.
    struct Parts {
        let state: GraphState
        let marks: FindingMarks
        let subscribers: [UInt64: [SubscriberGroup]]
        let groups: OutputGrouping
        /// Which operator edges are on a loop, and which closures feed the next Output.
        let cycles: CyclePaths
        /// Which operator edges and subscriptions are on what keeps a leak alive.
        let keptAlive: KeptAlivePaths
        let drawsSubscribers: Bool
        let clustering: Clustering
    }

    /// The smallest group of identical Outputs drawn as one node, or `nil` for no collapsing.
    var collapseMinimum: Int? {
        switch collapsing {
        case .automatic: Self.automaticCollapseMinimum
        case .always: 2
        case .never: nil
        }
    }

    /// Applies ``maximumNodes``: keeps the groups with findings first; returns the Outputs left out.
    func limitNodes(
        _ groups: inout OutputGrouping, marks: FindingMarks, subscribers: [UInt64: [SubscriberGroup]]
    ) -> Int {
        guard let maximumNodes else { return 0 }
        return groups.limit(to: max(0, maximumNodes)) { group in
            !marks.outputKinds(group.members).isEmpty
                || group.members.contains { id in
                    subscribers[id]?.contains { !marks.subscriptionKinds($0.subscriptions).isEmpty } == true
                }
        }
    }

    func addOutputNodes(_ parts: Parts, to document: inout GraphDocument) {
        for group in parts.groups.groups {
            document.nodes.append(
                outputNode(
                    group, state: parts.state, marks: parts.marks, subscribers: parts.subscribers,
                    drawsSubscribers: parts.drawsSubscribers, clustering: parts.clustering))
        }
    }

    /// Operator and inner edges, one per pair of nodes and role, counted (×N) when repeated.
    func addOperatorEdges(_ parts: Parts, to document: inout GraphDocument) {
        let state = parts.state
        var edgeIndex: [EdgeKey: Int] = [:]
        var edgeCounts: [Int] = []
        for edge in state.edges {
            guard let from = parts.groups.nodeID[edge.source], let to = parts.groups.nodeID[edge.derived] else {
                continue
            }
            let key = EdgeKey(from: from, to: to, role: edge.role, operation: edge.operation)
            let hot = parts.cycles.operatorEdges.contains(Pair(edge.source, edge.derived))
            let holds = parts.keptAlive.operatorEdges.contains(Pair(edge.source, edge.derived))
            if let index = edgeIndex[key] {
                edgeCounts[index] += 1
                if hot { highlight(&document.edges[index]) }
                if holds && !hot { KeptAlivePaths.emphasise(&document.edges[index]) }
                continue
            }
            let look = TraceGraphStyle.look(for: edge.operation, role: edge.role)
            let source = state.output(edge.source)
            let derived = state.output(edge.derived)
            var drawn = GraphDocument.Edge(
                from: from, to: to, label: edgeLabel(edge.role), style: look.style, color: look.color,
                penWidth: look.penWidth, arrowhead: look.arrowhead,
                tooltip:
                    "\(source?.displayName ?? "#\(edge.source)") → \(derived?.displayName ?? "#\(edge.derived)"): \(look.meaning)",
                faded: source?.isReleased == true || derived?.isReleased == true)
            if hot { highlight(&drawn) } else if holds { KeptAlivePaths.emphasise(&drawn) }
            edgeIndex[key] = document.edges.count
            edgeCounts.append(1)
            document.edges.append(drawn)
        }
        for (index, count) in edgeCounts.enumerated() where count > 1 {
            let label = document.edges[index].label
            document.edges[index].label = label.map { "\($0) ×\(count)" } ?? "×\(count)"
        }
    }

    /// A small node per subscriber group hanging off its Output, and the feedback edges of closures on a loop.
    /// Returns each subscriber node's subscriptions, by node id.
    func addSubscribers(_ parts: Parts, to document: inout GraphDocument) -> [String: [UInt64]] {
        var added: [String: [UInt64]] = [:]
        for group in parts.groups.groups {
            let owner = parts.groups.nodeID[group.members[0]]!
            let merged = SubscriberGroup.merged(group.members.flatMap { parts.subscribers[$0] ?? [] })
            for subscriber in merged {
                let id = "\(owner)-s\(subscriber.key.hashValueString)"
                guard added[id] == nil else { continue }
                added[id] = subscriber.subscriptions.sorted()
                let isOnCycle = subscriber.subscriptions.contains { parts.cycles.closures[$0] != nil }
                document.nodes.append(
                    subscriberNode(
                        subscriber, id: id, state: parts.state, marks: parts.marks, onCycle: isOnCycle,
                        clustering: parts.clustering))
                let look = TraceGraphStyle.subscriberEdge
                var edge = GraphDocument.Edge(
                    from: owner, to: id, style: look.style,
                    color: isOnCycle ? TraceGraphStyle.findingBorder : look.color,
                    penWidth: isOnCycle ? 3 : look.penWidth, arrowhead: look.arrowhead,
                    faded: subscriber.isDangling && !isOnCycle)
                if !isOnCycle && subscriber.subscriptions.contains(where: parts.keptAlive.subscriptions.contains) {
                    KeptAlivePaths.emphasise(&edge)
                }
                document.edges.append(edge)
                // A closure on a feedback loop: the Output it updates next.
                for subscription in subscriber.subscriptions {
                    guard let next = parts.cycles.closures[subscription], let target = parts.groups.nodeID[next] else {
                        continue
                    }
                    document.edges.append(feedbackEdge(from: id, to: target, label: "updates"))
                }
            }
        }
        return added
    }

    /// Loop steps whose closure is no longer bound (or not drawn): Output to Output.
    func addUnboundLoopSteps(_ parts: Parts, to document: inout GraphDocument) {
        let boundSubscriptions = Set(parts.state.subscriptions.map(\.id))
        for step in parts.cycles.unboundSteps {
            guard let from = parts.groups.nodeID[step.from], let to = parts.groups.nodeID[step.to] else { continue }
            if parts.drawsSubscribers, let subscription = step.subscription, boundSubscriptions.contains(subscription) {
                continue
            }
            document.edges.append(feedbackEdge(from: from, to: to, label: "feeds back"))
        }
    }
}

/// One drawn edge between two nodes; parallel edges of collapsed nodes are drawn once with a count.
struct EdgeKey: Hashable, Sendable {
    var from: String
    var to: String
    var role: EdgeState.Role
    var operation: OutputKind
}
