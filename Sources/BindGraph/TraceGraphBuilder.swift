import BindAnalysis
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
///   their path, dangling binders greyed out;
/// - repeated identical structures (same kind, type, line, label, findings, subscribers and the
///   same shape of edges around them) collapsed into one "×N" node (see ``Collapsing``).
///
/// ```swift
/// let result = try TraceAnalyzer.analyze(path: "app.trace")
/// let graph = TraceGraphBuilder().build(result.state, findings: result.findings)
/// let svg = try GraphvizRenderer().render(graph.document, format: .svg)
/// ```
/// - Complexity: O((*n* + *e*) log *n*) in Outputs, edges and subscriptions.
public struct TraceGraphBuilder: Sendable {
    /// How nodes are grouped into boxes.
    public enum Clustering: String, Sendable, CaseIterable {
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
    public enum Collapsing: String, Sendable, CaseIterable {
        /// Collapse groups of ``TraceGraphBuilder/automaticCollapseMinimum`` or more identical Outputs.
        case automatic = "auto"
        /// Collapse any two or more identical Outputs.
        case always
        /// Draw every Output.
        case never
    }

    public var title: String?
    public var clustering: Clustering
    public var collapsing: Collapsing
    /// Above this many Output nodes, subscribers are counted on their Output instead of drawn.
    public var subscriberNodeLimit: Int
    /// At most this many Output nodes are drawn (those with findings first, then by creation); the rest
    /// are left out and counted in ``TraceGraph/omittedOutputs``. `nil`: no limit. Layout time grows
    /// faster than the node count, so a graph meant for Graphviz should have one (`bind-trace` uses
    /// ``defaultMaximumNodes``).
    public var maximumNodes: Int?

    /// The node limit of `bind-trace graph` and `report` unless raised: `sfdp` lays out 4,000 nodes in
    /// about 10 s on a small machine.
    public static let defaultMaximumNodes = 4_000

    /// Nodes of the legend box, included in every document.
    public static var legendNodeCount: Int { TraceGraphStyle.legend().nodes.count }

    /// The smallest group ``Collapsing/automatic`` collapses.
    public static let automaticCollapseMinimum = 3

    public init(
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
    public func build(_ state: GraphState, findings: [Finding]) -> TraceGraph {
        let marks = FindingMarks(findings)
        let subscribers = subscriberGroups(state, marks: marks)
        var groups = OutputGrouping(
            state: state, marks: marks, subscribers: subscribers, minimumGroup: collapseMinimum)
        let groupCount = groups.nodeCount
        let omittedOutputs = limitNodes(&groups, marks: marks, subscribers: subscribers)
        let drawsSubscribers = groups.nodeCount <= subscriberNodeLimit
        let parts = Parts(
            state: state, marks: marks, subscribers: subscribers, groups: groups,
            cycles: CyclePaths(findings: findings, state: state), drawsSubscribers: drawsSubscribers,
            clustering: resolveClustering(state, drawsSubscribers: drawsSubscribers))

        var document = GraphDocument(title: title, direction: .leftToRight)
        addOutputNodes(parts, to: &document)
        addOperatorEdges(parts, to: &document)
        if drawsSubscribers { addSubscribers(parts, to: &document) }
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
            omittedNodes: groupCount - groups.nodeCount)
    }

    /// What the steps of ``build(_:findings:)`` share.
    private struct Parts {
        let state: GraphState
        let marks: FindingMarks
        let subscribers: [UInt64: [SubscriberGroup]]
        let groups: OutputGrouping
        /// Which operator edges are on a loop, and which closures feed the next Output.
        let cycles: CyclePaths
        let drawsSubscribers: Bool
        let clustering: Clustering
    }

    /// The smallest group of identical Outputs drawn as one node, or `nil` for no collapsing.
    private var collapseMinimum: Int? {
        switch collapsing {
        case .automatic: Self.automaticCollapseMinimum
        case .always: 2
        case .never: nil
        }
    }

    /// Applies ``maximumNodes``: keeps the groups with findings first; returns the Outputs left out.
    private func limitNodes(
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

    private func addOutputNodes(_ parts: Parts, to document: inout GraphDocument) {
        for group in parts.groups.groups {
            document.nodes.append(
                outputNode(
                    group, state: parts.state, marks: parts.marks, subscribers: parts.subscribers,
                    drawsSubscribers: parts.drawsSubscribers, clustering: parts.clustering))
        }
    }

    /// Operator and inner edges, one per pair of nodes and role, counted (×N) when repeated.
    private func addOperatorEdges(_ parts: Parts, to document: inout GraphDocument) {
        let state = parts.state
        var edgeIndex: [EdgeKey: Int] = [:]
        var edgeCounts: [Int] = []
        for edge in state.edges {
            guard let from = parts.groups.nodeID[edge.source], let to = parts.groups.nodeID[edge.derived] else {
                continue
            }
            let key = EdgeKey(from: from, to: to, role: edge.role, operation: edge.operation)
            let hot = parts.cycles.operatorEdges.contains(Pair(edge.source, edge.derived))
            if let index = edgeIndex[key] {
                edgeCounts[index] += 1
                if hot { highlight(&document.edges[index]) }
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
            if hot { highlight(&drawn) }
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
    private func addSubscribers(_ parts: Parts, to document: inout GraphDocument) {
        var added: Set<String> = []
        for group in parts.groups.groups {
            let owner = parts.groups.nodeID[group.members[0]]!
            let merged = SubscriberGroup.merged(group.members.flatMap { parts.subscribers[$0] ?? [] })
            for subscriber in merged {
                let id = "\(owner)-s\(subscriber.key.hashValueString)"
                guard added.insert(id).inserted else { continue }
                let isOnCycle = subscriber.subscriptions.contains { parts.cycles.closures[$0] != nil }
                document.nodes.append(
                    subscriberNode(
                        subscriber, id: id, state: parts.state, marks: parts.marks, onCycle: isOnCycle,
                        clustering: parts.clustering))
                let look = TraceGraphStyle.subscriberEdge
                document.edges.append(
                    .init(
                        from: owner, to: id, style: look.style,
                        color: isOnCycle ? TraceGraphStyle.findingBorder : look.color,
                        penWidth: isOnCycle ? 3 : look.penWidth, arrowhead: look.arrowhead,
                        faded: subscriber.isDangling && !isOnCycle))
                // A closure on a feedback loop: the Output it updates next.
                for subscription in subscriber.subscriptions {
                    guard let next = parts.cycles.closures[subscription], let target = parts.groups.nodeID[next] else {
                        continue
                    }
                    document.edges.append(feedbackEdge(from: id, to: target, label: "updates"))
                }
            }
        }
    }

    /// Loop steps whose closure is no longer bound (or not drawn): Output to Output.
    private func addUnboundLoopSteps(_ parts: Parts, to document: inout GraphDocument) {
        let boundSubscriptions = Set(parts.state.subscriptions.map(\.id))
        for step in parts.cycles.unboundSteps {
            guard let from = parts.groups.nodeID[step.from], let to = parts.groups.nodeID[step.to] else { continue }
            if parts.drawsSubscribers, let subscription = step.subscription, boundSubscriptions.contains(subscription) {
                continue
            }
            document.edges.append(feedbackEdge(from: from, to: to, label: "feeds back"))
        }
    }

    // MARK: Nodes

    private func outputNode(
        _ group: OutputGrouping.Group, state: GraphState, marks: FindingMarks, subscribers: [UInt64: [SubscriberGroup]],
        drawsSubscribers: Bool, clustering: Clustering
    ) -> GraphDocument.Node {
        let members = group.members.compactMap { state.output($0) }
        let first = members[0]
        let count = members.count
        let look = TraceGraphStyle.look(for: first.kind)
        let kinds = marks.outputKinds(group.members)

        let name = first.label ?? (first.kind.isDerived ? "\(first.kind)" : Self.kindName(first.kind))
        let title = count > 1 ? "\(name) ×\(count)" : (first.label == nil ? "\(name) #\(first.id)" : name)
        var lines = [typeLine(first), siteLine(first.site, clustering: clustering)]
        let updates = members.reduce(UInt64(0)) { $0 &+ $1.updateCount }
        if count > 1 {
            lines.append("\(updates) update\(updates == 1 ? "" : "s") in all")
        } else {
            var line = "\(updates) update\(updates == 1 ? "" : "s")"
            if let preview = first.lastPreview { line += " · last " + Self.shortened(preview, to: 32) }
            lines.append(line)
        }
        if !drawsSubscribers {
            let bound = members.reduce(0) { total, output in
                total + (subscribers[output.id] ?? []).reduce(0) { $0 + $1.subscriptions.count }
            }
            if bound > 0 { lines.append("\(bound) subscriber\(bound == 1 ? "" : "s")") }
        }
        if first.isReleased { lines.append("released" + (first.releasedAt.map { " at event #\($0)" } ?? "")) }
        if first.isPreexisting { lines.append("created before the recording") }
        for kind in kinds.sorted() { lines.append("⚠ " + Self.findingWord(kind)) }

        var node = GraphDocument.Node(
            id: "", title: title, lines: lines, shape: look.shape, style: look.style, fillColor: look.fill,
            borderColor: look.border, tooltip: outputTooltip(members, marks: marks),
            cluster: clusterKey(first.site, clustering),
            faded: first.isReleased)
        if kinds.contains(.leakedOutput) || kinds.contains(.feedbackCycle) || kinds.contains(.structuralCycle) {
            node.fillColor = TraceGraphStyle.findingFill
            node.borderColor = TraceGraphStyle.findingBorder
            node.style.insert(.bold)
        } else if !kinds.isEmpty {
            // Its subscriptions leaked: the Output itself is fine, so only its outline warns.
            node.borderColor = TraceGraphStyle.findingBorder
            node.style.insert(.bold)
        }
        node.id = group.nodeID
        return node
    }

    private func subscriberNode(
        _ subscriber: SubscriberGroup, id: String, state: GraphState, marks: FindingMarks, onCycle: Bool,
        clustering: Clustering
    ) -> GraphDocument.Node {
        let count = subscriber.subscriptions.count
        let name = subscriber.key.targetType ?? "closure"
        var lines = [
            (subscriber.key.targetType == nil ? "bind { } · " : "Binder · ")
                + siteLine(subscriber.key.site, clustering: clustering)
        ]
        let kinds = marks.subscriptionKinds(subscriber.subscriptions).union(onCycle ? [.feedbackCycle] : [])
        if subscriber.isDangling { lines.append("⚠ target gone: dangling") }
        for kind in kinds.sorted() where kind != .danglingBinder { lines.append("⚠ " + Self.findingWord(kind)) }
        var node = GraphDocument.Node(
            id: id, title: count > 1 ? "\(name) ×\(count)" : name, lines: lines, shape: .box,
            style: [.filled, .rounded, .dashed], fillColor: TraceGraphStyle.subscriberFill,
            borderColor: TraceGraphStyle.subscriberBorder,
            tooltip: "\(count) subscription\(count == 1 ? "" : "s") bound at \(subscriber.key.site)"
                + (subscriber.key.targetType.map { " to a Binder of \($0)" } ?? "")
                + marks.messages(subscriptions: subscriber.subscriptions),
            cluster: clusterKey(subscriber.key.site, clustering))
        if subscriber.isDangling && !onCycle {
            node.fillColor = TraceGraphStyle.danglingFill
            node.borderColor = TraceGraphStyle.danglingBorder
            node.faded = true
        } else if !kinds.isEmpty {
            node.fillColor = TraceGraphStyle.findingFill
            node.borderColor = TraceGraphStyle.findingBorder
            node.style = [.filled, .rounded, .bold]
        }
        return node
    }

    private func outputTooltip(_ members: [OutputState], marks: FindingMarks) -> String {
        var lines = members.prefix(8).map { "#\($0.id) \($0.displayName) \($0.kind) at \($0.site)" }
        if members.count > 8 { lines.append("… and \(members.count - 8) more") }
        return lines.joined(separator: "\n") + marks.messages(outputs: members.map(\.id))
    }

    private func typeLine(_ output: OutputState) -> String {
        switch output.kind {
        case .output: "Output<\(output.valueType)>"
        case .relay: "Relay<\(output.valueType)>"
        default: "\(output.kind) → \(output.valueType)"
        }
    }

    /// `line 42` inside a file's box, `Screen.swift:42` elsewhere.
    private func siteLine(_ site: SourceSite, clustering: Clustering) -> String {
        if clustering == .file { return "line \(site.line)" }
        let file = site.file.split(separator: "/").last.map(String.init) ?? site.file
        return "\(file):\(site.line)"
    }

    private func edgeLabel(_ role: EdgeState.Role) -> String? {
        switch role {
        case .operator: nil
        case .currentInner: "current inner"
        case .pastInner: "past inner"
        }
    }

    private func highlight(_ edge: inout GraphDocument.Edge) {
        edge.color = TraceGraphStyle.findingBorder
        edge.penWidth = 3
        edge.faded = false
    }

    private func feedbackEdge(from: String, to: String, label: String) -> GraphDocument.Edge {
        let look = TraceGraphStyle.feedbackEdge
        return .init(
            from: from, to: to, label: label, style: look.style, color: look.color, penWidth: look.penWidth,
            arrowhead: look.arrowhead, tooltip: "feedback loop: this updates the next Output of the loop")
    }

    // MARK: Clusters

    private func resolveClustering(_ state: GraphState, drawsSubscribers: Bool) -> Clustering {
        guard clustering == .automatic else { return clustering }
        guard drawsSubscribers else { return .none }
        var files = Set(state.outputs.map(\.site.file))
        for subscription in state.subscriptions where !subscription.isInternal {
            files.insert(subscription.site.file)
            if files.count > 1 { break }
        }
        return files.count > 1 ? .file : .none
    }

    private func clusterKey(_ site: SourceSite, _ clustering: Clustering) -> String? {
        switch clustering {
        case .file: site.file
        case .module: site.module.isEmpty ? site.file : site.module
        case .none, .automatic: nil
        }
    }

    private func clusters(_ nodes: [GraphDocument.Node], clustering: Clustering) -> [GraphDocument.Cluster] {
        var keys: [String] = []
        var seen: Set<String> = []
        for node in nodes {
            if let key = node.cluster, seen.insert(key).inserted { keys.append(key) }
        }
        return keys.sorted().map { key in
            key == TraceGraphStyle.legendCluster
                ? .init(key: key, title: "Legend", fillColor: .white, borderColor: TraceGraphStyle.clusterBorder)
                : .init(
                    key: key, title: key, fillColor: TraceGraphStyle.clusterFill,
                    borderColor: TraceGraphStyle.clusterBorder)
        }
    }

    // MARK: Subscribers

    private func subscriberGroups(_ state: GraphState, marks: FindingMarks) -> [UInt64: [SubscriberGroup]] {
        var byOutput: [UInt64: [SubscriberGroup.Key: SubscriberGroup]] = [:]
        for subscription in state.subscriptions where !subscription.isInternal {
            let dangling =
                subscription.danglingDeliveries > 0
                || marks.subscriptions[subscription.id]?.contains(.danglingBinder) == true
            let key = SubscriberGroup.Key(
                targetType: subscription.target?.type, site: subscription.site, isDangling: dangling,
                findings: marks.subscriptions[subscription.id]?.sorted().map(\.rawValue).joined(separator: ",") ?? "")
            byOutput[subscription.output, default: [:]][key, default: SubscriberGroup(key: key)].subscriptions.append(
                subscription.id)
        }
        return byOutput.mapValues { $0.values.sorted { $0.key < $1.key } }
    }

    // MARK: Words

    static func kindName(_ kind: OutputKind) -> String {
        switch kind {
        case .output: "Output"
        case .relay: "Relay"
        default: kind.description
        }
    }

    static func findingWord(_ kind: Finding.Kind) -> String {
        switch kind {
        case .leakedSubscription: "leaked subscription"
        case .leakedOutput: "leaked Output"
        case .duplicateBinding: "duplicate binding"
        case .danglingBinder: "dangling binder"
        case .feedbackCycle: "feedback loop"
        case .structuralCycle: "structural cycle"
        case .stoppedCombine: "stopped combine"
        }
    }

    /// At most `limit` characters, with `…` when cut (labels are sanitised later by the renderer).
    static func shortened(_ text: String, to limit: Int) -> String {
        let line = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        let cut = line.count > limit || line.count < text.count
        return cut ? String(line.prefix(limit - 1)) + "…" : line
    }
}

// MARK: - Pieces

/// Subscriptions of one Output drawn as one node: same Binder target type (or closure) and line.
struct SubscriberGroup: Sendable {
    struct Key: Hashable, Sendable, Comparable {
        var targetType: String?
        var site: SourceSite
        var isDangling: Bool
        /// The finding kinds of its subscriptions, so that leaked and healthy ones stay apart.
        var findings: String

        static func < (lhs: Key, rhs: Key) -> Bool {
            (lhs.site, lhs.targetType ?? "", lhs.findings, lhs.isDangling ? 1 : 0)
                < (rhs.site, rhs.targetType ?? "", rhs.findings, rhs.isDangling ? 1 : 0)
        }

        /// A stable short id for node names.
        var hashValueString: String {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in "\(targetType ?? "")|\(site)|\(isDangling)|\(findings)".utf8 {
                hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
            }
            return String(hash, radix: 36)
        }
    }

    var key: Key
    var subscriptions: [UInt64] = []
    var isDangling: Bool { key.isDangling }

    /// Groups of several Outputs (a collapsed node) added up by key.
    static func merged(_ groups: [SubscriberGroup]) -> [SubscriberGroup] {
        var byKey: [Key: SubscriberGroup] = [:]
        for group in groups {
            byKey[group.key, default: SubscriberGroup(key: group.key)].subscriptions += group.subscriptions
        }
        return byKey.values.sorted { $0.key < $1.key }
    }
}

/// Which findings touch which Outputs and subscriptions.
struct FindingMarks: Sendable {
    var outputs: [UInt64: Set<Finding.Kind>] = [:]
    var subscriptions: [UInt64: Set<Finding.Kind>] = [:]
    private var outputMessages: [UInt64: [String]] = [:]
    private var subscriptionMessages: [UInt64: [String]] = [:]

    init(_ findings: [Finding]) {
        for finding in findings {
            let text = "\(finding.kind.rawValue): \(finding.message)"
            for id in finding.outputs {
                outputs[id, default: []].insert(finding.kind)
                if outputMessages[id, default: []].count < 3 { outputMessages[id, default: []].append(text) }
            }
            for id in finding.subscriptions {
                subscriptions[id, default: []].insert(finding.kind)
                if subscriptionMessages[id, default: []].count < 3 {
                    subscriptionMessages[id, default: []].append(text)
                }
            }
        }
    }

    func outputKinds(_ ids: [UInt64]) -> Set<Finding.Kind> {
        ids.reduce(into: Set<Finding.Kind>()) { $0.formUnion(outputs[$1] ?? []) }
    }

    func subscriptionKinds(_ ids: [UInt64]) -> Set<Finding.Kind> {
        ids.reduce(into: Set<Finding.Kind>()) { $0.formUnion(subscriptions[$1] ?? []) }
    }

    func messages(outputs ids: [UInt64]) -> String { Self.joined(ids.compactMap { outputMessages[$0] }) }
    func messages(subscriptions ids: [UInt64]) -> String { Self.joined(ids.compactMap { subscriptionMessages[$0] }) }

    private static func joined(_ lists: [[String]]) -> String {
        var seen: Set<String> = []
        let unique = lists.joined().filter { seen.insert($0).inserted }.prefix(3)
        return unique.isEmpty ? "" : "\n" + unique.joined(separator: "\n")
    }
}

/// Two Output ids, source first.
struct Pair: Hashable, Sendable {
    var source: UInt64
    var derived: UInt64
    init(_ source: UInt64, _ derived: UInt64) {
        self.source = source
        self.derived = derived
    }
}

/// One drawn edge between two nodes; parallel edges of collapsed nodes are drawn once with a count.
struct EdgeKey: Hashable, Sendable {
    var from: String
    var to: String
    var role: EdgeState.Role
    var operation: OutputKind
}

/// The paths of cycle findings, as the graph draws them.
///
/// A feedback finding lists its Outputs in loop order and, aligned with them, the subscription on
/// each that updates the next one: an operator's own subscription (the operator edge is on the loop)
/// or a user's closure (drawn as "updates" from the closure's node to the next Output).
struct CyclePaths: Sendable {
    struct Step: Sendable {
        var from: UInt64
        var to: UInt64
        var subscription: UInt64?
    }

    var operatorEdges: Set<Pair> = []
    /// A user's subscription on a loop → the Output it updates.
    var closures: [UInt64: UInt64] = [:]
    /// Loop steps made by a user's closure, drawn Output to Output when the closure is not drawn.
    var unboundSteps: [Step] = []

    init(findings: [Finding], state: GraphState) {
        let liveEdges = Set(state.edges.map { Pair($0.source, $0.derived) })
        var subscriptionByID: [UInt64: SubscriptionState] = [:]
        for finding in findings where finding.kind == .feedbackCycle {
            for id in finding.subscriptions where subscriptionByID[id] == nil {
                if let subscription = state.subscriptions.first(where: { $0.id == id }) {
                    subscriptionByID[id] = subscription
                }
            }
        }
        for finding in findings {
            switch finding.kind {
            case .feedbackCycle:
                let outputs = finding.outputs
                guard outputs.count > 1 else { continue }
                for (index, output) in outputs.enumerated() {
                    let next = outputs[(index + 1) % outputs.count]
                    let subscription = index < finding.subscriptions.count ? finding.subscriptions[index] : nil
                    if liveEdges.contains(Pair(output, next)) {
                        operatorEdges.insert(Pair(output, next))
                    } else if let subscription, let bound = subscriptionByID[subscription], bound.output == output,
                        !bound.isInternal
                    {
                        closures[subscription] = next
                        unboundSteps.append(Step(from: output, to: next, subscription: subscription))
                    } else {
                        unboundSteps.append(Step(from: output, to: next, subscription: nil))
                    }
                }
            case .structuralCycle:
                let members = Set(finding.outputs)
                for edge in state.edges where members.contains(edge.source) && members.contains(edge.derived) {
                    operatorEdges.insert(Pair(edge.source, edge.derived))
                }
            default:
                continue
            }
        }
    }
}
