import BindTraceModel

/// What keeps a leak alive, as far as the trace proves it: the references from something alive at
/// the end of the trace down to the leaked subscription or Output, for `leaked-subscription` and
/// `leaked-output` findings.
///
/// Layered on the findings and the final ``GraphState`` (no finder changes): each hop is one the
/// trace recorded — an Output's subscriber list holds its subscriptions, an operator's subscription
/// on a source holds the Output it derives — and a hop the trace cannot see (what a closure
/// captured, who holds a container) says "not recorded".
package enum ReferencePath {
    /// The path, one line (`'title' (String), alive at the end → its subscriber list → …`), or nil
    /// for another kind of finding or one whose Outputs and subscriptions are gone at the end.
    package static func describe(_ finding: Finding, in state: GraphState) -> String? {
        let hops: [String]
        switch finding.kind {
        case .leakedSubscription: hops = subscriptionPath(finding, in: state)
        case .leakedOutput: hops = outputPath(finding, in: state)
        default: return nil
        }
        return hops.isEmpty ? nil : hops.joined(separator: " → ")
    }

    /// Source Output → its subscriber list → the subscription → what its closure captured.
    private static func subscriptionPath(_ finding: Finding, in state: GraphState) -> [String] {
        guard let id = finding.subscriptions.first,
            let subscription = state.subscriptions.first(where: { $0.id == id }),
            let output = state.output(subscription.output)
        else { return [] }
        return [
            "\(output.displayName), alive at the end", "its subscriber list",
            "subscription \(subscription.id) (\(Narrator.name(of: subscription)))",
            subscription.target == nil
                ? "what its closure captured: not recorded" : "its Binder's target, held weakly",
        ]
    }

    /// The longer-lived source → its subscriber list → the operator's subscription → the leaked
    /// Output; or, for an Output with no live source, the closures bound to it (a retain cycle's
    /// captures are not recorded).
    private static func outputPath(_ finding: Finding, in state: GraphState) -> [String] {
        guard let id = finding.outputs.first, let output = state.output(id) else { return [] }
        let upstream = sources(of: output, in: state)
        if !upstream.isEmpty { return upstream + [output.displayName + " (the leak)"] }
        let bound = state.subscriptions.filter { $0.output == id && !$0.isInternal }
        guard let first = bound.first else { return [] }
        return [
            "\(output.displayName) (the leak)", "its subscriber list",
            "subscription \(first.id) (\(Narrator.name(of: first)))",
            "what its closure captured (the Output's owner, for a retain cycle): not recorded",
        ]
    }

    /// The chain of live sources above `output` through operator edges, outermost first, each
    /// followed by the hop that holds the next (at most 10 hops: deeper chains are cut).
    private static func sources(of output: OutputState, in state: GraphState) -> [String] {
        var hops: [String] = []
        var current = output
        var seen: Set<UInt64> = [output.id]
        for _ in 0..<10 {
            guard
                let edge = state.edges.first(where: {
                    $0.derived == current.id && $0.role != .pastInner && !seen.contains($0.source)
                }),
                let source = state.output(edge.source), !source.isReleased
            else { break }
            let holder =
                state.subscriptions.first { $0.output == source.id && $0.isInternal && $0.site == current.site }
                .map { "\(edge.operation)'s subscription \($0.id) at \(Narrator.place($0.site))" }
                ?? "\(edge.operation)'s subscription (its bind: not recorded)"
            hops.insert(contentsOf: ["\(source.displayName), alive at the end", "its subscriber list", holder], at: 0)
            seen.insert(source.id)
            current = source
        }
        return hops
    }
}
