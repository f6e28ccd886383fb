@_spi(Harness) import BindAnalysis
import BindTraceModel

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

/// Two Output ids, source first.
struct Pair: Hashable, Sendable {
    var source: UInt64
    var derived: UInt64
    init(_ source: UInt64, _ derived: UInt64) {
        self.source = source
        self.derived = derived
    }
}
