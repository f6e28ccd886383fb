@_spi(Harness) import BindTraceModel

/// What keeps a leak alive, as far as the trace proves it: the references from something alive at
/// the end of the trace down to the leaked subscription or Output, for `leaked-subscription`,
/// `leaked-output` and `retain-cycle` findings.
///
/// Layered on the findings and the final ``GraphState`` (no finder changes): each hop is one the
/// trace recorded — an Output's subscriber list holds its subscriptions, an operator's subscription
/// on a source holds the Output it derives — and a hop the trace cannot see (what a closure
/// captured, who holds a container) says "not recorded". The same walk gives the text (``describe(_:in:)``)
/// and what the graph emphasises (``links(_:in:)``).
package enum ReferencePath {
    /// The recorded references of a path, for drawing it: each operator edge (source Output → derived
    /// Output) and each subscription (an Output's subscriber list → it) on the path.
    package struct Links: Sendable {
        package var operatorEdges: [(source: UInt64, derived: UInt64)] = []
        package var subscriptions: [UInt64] = []
    }

    /// The path, one line (`'title' (String), alive at the end → its subscriber list → …`), or nil
    /// for another kind of finding or one whose Outputs and subscriptions are gone at the end.
    package static func describe(_ finding: Finding, in state: GraphState) -> String? {
        let hops = walk(finding, in: state).hops
        return hops.isEmpty ? nil : Narrator.path(hops)
    }

    /// The references ``describe(_:in:)`` names, by trace id: empty when it says nil. For a
    /// `leaked-output` finding merged from several Outputs of one line, the path of each (the text
    /// names the first), at most ``maximumDrawnOutputs`` of them.
    package static func links(_ finding: Finding, in state: GraphState) -> Links {
        guard finding.kind == .leakedOutput, finding.outputs.count > 1 else { return walk(finding, in: state).links }
        var all = Links()
        for id in finding.outputs.prefix(maximumDrawnOutputs) {
            var one = finding
            one.outputs = [id]
            let links = walk(one, in: state).links
            all.operatorEdges += links.operatorEdges
            all.subscriptions += links.subscriptions
        }
        return all
    }

    /// How many Outputs of one merged finding get their path walked for the graph: each walk scans
    /// the edges, and a picture shows no more.
    package static let maximumDrawnOutputs = 100

    private typealias Walk = (hops: [String], links: Links)

    private static func walk(_ finding: Finding, in state: GraphState) -> Walk {
        switch finding.kind {
        case .leakedSubscription: subscriptionPath(finding, in: state)
        case .leakedOutput: outputPath(finding, in: state)
        case .retainCycle: cyclePath(finding, in: state)
        default: ([], Links())
        }
    }

    /// Source Output → its subscriber list → the subscription → what its closure captured.
    private static func subscriptionPath(_ finding: Finding, in state: GraphState) -> Walk {
        guard let id = finding.subscriptions.first,
            let subscription = state.subscriptions.first(where: { $0.id == id }),
            let output = state.output(subscription.output)
        else { return ([], Links()) }
        let hops = [
            "\(output.displayName), alive at the end", "its subscriber list",
            "subscription \(subscription.id) (\(Narrator.name(of: subscription)))",
            subscription.target == nil
                ? capturedHop(subscription, in: state) : "its Binder's target, held weakly",
        ]
        return (hops, Links(subscriptions: [subscription.id]))
    }

    /// The longer-lived source → its subscriber list → the operator's subscription → the leaked
    /// Output; or, for an Output with no live source, the closures bound to it (a retain cycle's
    /// captures are not recorded).
    private static func outputPath(_ finding: Finding, in state: GraphState) -> Walk {
        guard let id = finding.outputs.first, let output = state.output(id) else { return ([], Links()) }
        let upstream = sources(of: output, in: state)
        if !upstream.hops.isEmpty { return (upstream.hops + [output.displayName + " (the leak)"], upstream.links) }
        let bound = state.subscriptions.first { $0.output == id && !$0.isInternal }
        return bound.map { closurePath(output, $0, in: state) } ?? ([], Links())
    }

    /// A retain cycle: the Output → its subscriber list → the culprit closure (the finding's bind) →
    /// its captures, not recorded; and the container that holds the closure's `Subscription`, when the
    /// trace records it (the cycle keeps the owner, so its container, alive; who owns it is not recorded).
    private static func cyclePath(_ finding: Finding, in state: GraphState) -> Walk {
        // The finding lists its culprit first (an operator's subscription when its transform closes it).
        let culprit = finding.subscriptions.lazy.compactMap { id in state.subscriptions.first { $0.id == id } }
            .first { !$0.isInternal || $0.captures != nil }
        guard let subscription = culprit, let output = state.output(subscription.output), !output.isReleased else {
            return outputPath(finding, in: state)
        }
        var walk = closurePath(output, subscription, in: state)
        if subscription.container != 0 {
            walk.hops.append(
                "its Subscription, held in SubscriptionContainer \(subscription.container) (who owns the container: "
                    + "not recorded)")
        }
        return walk
    }

    /// An Output that nothing recorded holds → the closure bound to it → what it captures: for a
    /// retain cycle with recorded captures, the owner and the stored properties back to the Output.
    private static func closurePath(_ output: OutputState, _ first: SubscriptionState, in state: GraphState) -> Walk {
        var hops = [
            "\(output.displayName) (the leak)", "its subscriber list",
            "subscription \(first.id) (\(Narrator.name(of: first)))",
        ]
        if let captures = first.captures,
            let (capture, held) = captures.lazy.filter({ $0.strength == .strong }).compactMap({ capture in
                capture.holds.first { held in
                    held.output == first.output || isSource(held.output, of: first.output, in: state)
                }
                .map { (capture, $0) }
            }).first
        {
            hops.append("captures \(Narrator.shortened(capture.type)) strongly")
            if !held.path.isEmpty { hops.append(Narrator.shortened(held.path)) }
            hops.append(
                (state.output(held.output)?.displayName ?? Narrator.unknownOutput(held.output))
                    + (held.output == first.output ? ", the Output it is bound to" : ", which it derives from"))
        } else {
            hops.append(capturedHop(first, in: state))
        }
        return (hops, Links(subscriptions: [first.id]))
    }

    /// What a closure's recorded captures hold, in one hop ("not recorded" for an older trace).
    private static func capturedHop(_ subscription: SubscriptionState, in state: GraphState) -> String {
        guard let captures = subscription.captures else { return "what its closure captured: not recorded" }
        return "its closure "
            + Narrator.captures(captures) { state.output($0)?.displayName ?? Narrator.unknownOutput($0) }
    }

    /// Whether `source` is upstream of `output` through live edges (at most 64 Outputs visited).
    private static func isSource(_ source: UInt64, of output: UInt64, in state: GraphState) -> Bool {
        var pending = [output]
        var seen: Set<UInt64> = [output]
        while let current = pending.popLast(), seen.count <= 64 {
            for edge in state.edges where edge.derived == current && edge.role != .pastInner {
                if edge.source == source { return true }
                if seen.insert(edge.source).inserted { pending.append(edge.source) }
            }
        }
        return false
    }

    /// The chain of live sources above `output` through operator edges, outermost first, each
    /// followed by the hop that holds the next (at most 10 hops: deeper chains are cut).
    private static func sources(of output: OutputState, in state: GraphState) -> Walk {
        var hops: [String] = []
        var links = Links()
        var current = output
        var seen: Set<UInt64> = [output.id]
        for _ in 0..<10 {
            guard
                let edge = state.edges.first(where: {
                    $0.derived == current.id && $0.role != .pastInner && !seen.contains($0.source)
                }),
                let source = state.output(edge.source), !source.isReleased
            else { break }
            let subscription = state.subscriptions.first {
                $0.output == source.id && $0.isInternal && $0.site == current.site
            }
            let holder =
                subscription.map { "\(edge.operation)'s subscription \($0.id) at \(Narrator.place($0.site))" }
                ?? "\(edge.operation)'s subscription (its bind: not recorded)"
            hops.insert(contentsOf: ["\(source.displayName), alive at the end", "its subscriber list", holder], at: 0)
            links.operatorEdges.insert((source.id, current.id), at: 0)
            if let subscription { links.subscriptions.insert(subscription.id, at: 0) }
            seen.insert(source.id)
            current = source
        }
        return (hops, links)
    }
}
