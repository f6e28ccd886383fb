@_spi(Harness) import BindAnalysis
@_spi(Harness) import BindTraceModel

/// The graphs of several processes as one: Outputs keyed by where they were created and what kind
/// they are, so the same screen's `email` in ten test processes is one node. Fed one process's final
/// state at a time (the state can be dropped after), it keeps one entry per site, not per process.
///
/// Ids in the merged state are new (1, 2, …): a process's Output ids mean nothing in another process.
/// Per merged Output: updates summed over processes, the last value of the last process that had one,
/// alive when alive in any process. Edges and subscriptions are kept once per merged end points and
/// binding line. Scopes are dropped (they are per process). Findings are carried over with their
/// Outputs and subscriptions renamed, so the picture marks them as a process's graph does.
package struct SiteMergedGraph {
    private struct OutputKey: Hashable {
        var site: SourceSite
        var kind: OutputKind
    }

    private struct SubscriptionKey: Hashable {
        var output: UInt64
        var site: SourceSite
        var isInternal: Bool
    }

    private struct EdgeKey: Hashable {
        var source: UInt64
        var derived: UInt64
        var role: EdgeState.Role
    }

    private var outputs: [OutputKey: OutputState] = [:]
    private var subscriptions: [SubscriptionKey: SubscriptionState] = [:]
    private var edges: [EdgeKey: EdgeState] = [:]
    private var findingsByKey: [String: Finding] = [:]
    /// How many processes were added.
    package private(set) var processes = 0

    package init() {}

    /// Adds one process's graph and findings.
    /// - Complexity: O(*n*) in the state's Outputs, subscriptions and edges.
    package mutating func add(_ state: GraphState, findings: [Finding]) {
        processes += 1
        var outputIds: [UInt64: UInt64] = [:]
        for output in state.outputs {
            let key = OutputKey(site: output.site, kind: output.kind)
            if var merged = outputs[key] {
                merged.updateCount += output.updateCount
                merged.lastPreview = output.lastPreview ?? merged.lastPreview
                merged.label = merged.label ?? output.label
                if !output.isReleased {
                    merged.isReleased = false
                    merged.releasedAt = nil
                }
                outputs[key] = merged
                outputIds[output.id] = merged.id
            } else {
                var merged = output
                merged.id = UInt64(outputs.count + 1)
                merged.scope = 0
                outputs[key] = merged
                outputIds[output.id] = merged.id
            }
        }
        var subscriptionIds: [UInt64: UInt64] = [:]
        for subscription in state.subscriptions {
            guard let output = outputIds[subscription.output] else { continue }
            let key = SubscriptionKey(output: output, site: subscription.site, isInternal: subscription.isInternal)
            if let merged = subscriptions[key] {
                subscriptionIds[subscription.id] = merged.id
            } else {
                var merged = subscription
                merged.id = UInt64(subscriptions.count + 1)
                merged.output = output
                merged.scope = 0
                subscriptions[key] = merged
                subscriptionIds[subscription.id] = merged.id
            }
        }
        for edge in state.edges {
            guard let source = outputIds[edge.source], let derived = outputIds[edge.derived] else { continue }
            var merged = edge
            merged.source = source
            merged.derived = derived
            edges[EdgeKey(source: source, derived: derived, role: edge.role)] = merged
        }
        for finding in findings {
            var renamed = finding
            renamed.outputs = finding.outputs.compactMap { outputIds[$0] }
            renamed.subscriptions = finding.subscriptions.compactMap { subscriptionIds[$0] }
            // The same finding in several processes is one mark.
            findingsByKey[FindingFingerprint.of(finding)] = findingsByKey[FindingFingerprint.of(finding)] ?? renamed
        }
    }

    /// The merged graph, sorted by id as every ``GraphState`` is.
    package var state: GraphState {
        GraphState(
            outputs: outputs.values.sorted { $0.id < $1.id },
            subscriptions: subscriptions.values.sorted { $0.id < $1.id },
            edges: edges.values.sorted { ($0.source, $0.derived) < ($1.source, $1.derived) })
    }

    /// The merged graph drawn as `bind-trace graph` draws one (`nil` when empty, too big or not drawn).
    package func svg(options: TraceReportOptions) -> String? {
        var options = options
        options.graph.title = "\(processes) processes merged by creation site"
        let moment = ReportContent.DrawnMoment(state: state, caption: "")
        return ReportContent.drawGraph(moment: moment, findings: findings, options: options).svg
    }

    /// The findings of all processes, once each, about the merged ids.
    package var findings: [Finding] { findingsByKey.keys.sorted().compactMap { findingsByKey[$0] } }
}
