import BindTraceModel

/// Finds `leaked-output` and `leaked-subscription` when the trace ends.
///
/// The rule, chosen for precision: an Output created inside a scope leaked when the scope has
/// ended *and the Output is still alive at the end of the trace*. One released later (after the
/// closure returned, with its owner, on the next run loop turn) was not leaked, so the judgement
/// waits for the end. Likewise a subscription bound inside a scope leaked when the scope has ended
/// and it is still bound at the end of the trace.
///
/// What a user needs to see once:
/// - an operator's own subscriptions are never reported: they exist to keep their derived Output
///   alive, so the leaked-output finding of that Output covers them;
/// - a derived Output all of whose sources leaked too dies with them: it is folded into the
///   finding of a leaked source (a root); one with a source that outlives the scope is a root;
/// - the current inner Output of a flatMap lives as long as the flatMap: judged with it;
/// - subscriptions to a leaked Output are listed in that Output's finding;
/// - a Binder subscription that received values after its target was gone is a dangling-binder;
/// - findings of the same kind at the same line are merged, with a count.
///
/// With ``AnalysisOptions/atExit``, everything still alive or bound at the end is judged the
/// same way ("at exit"), except what existed before the recording started.
struct LeakFinder {
    let replay: Replay

    private enum Reason {
        case scope(ScopeNode)
        case exit
    }

    func findings() -> [Finding] {
        let atExit = replay.options.atExit
        func reason(_ scope: ScopeNode?, preexisting: Bool) -> Reason? {
            if let ended = scope?.endedScope { return .scope(ended) }
            return atExit && !preexisting ? .exit : nil
        }

        // Leaked Outputs, except flatMap inners (judged with their flatMap).
        var leaked: [UInt64: (node: OutputNode, reason: Reason)] = [:]
        for node in replay.outputTable.values where node.inFocus {
            guard let why = reason(node.scope, preexisting: node.isPreexisting) else { continue }
            leaked[node.id] = (node, why)
        }

        // Roots: leaked Outputs that are not kept alive only by other leaked Outputs.
        func liveSources(_ node: OutputNode) -> [UInt64] {
            node.incoming.filter { $0.role != .pastInner }.map(\.source)
        }
        func root(of id: UInt64) -> UInt64 {
            var current = id
            var visited: Set<UInt64> = [id]
            while let node = leaked[current]?.node {
                if node.innerOf != 0, leaked[node.innerOf] != nil, visited.insert(node.innerOf).inserted {
                    current = node.innerOf
                    continue
                }
                let sources = liveSources(node)
                guard !sources.isEmpty, sources.allSatisfy({ leaked[$0] != nil }),
                    let next = sources.sorted().first(where: { visited.insert($0).inserted })
                else { return current }
                current = next
            }
            return current
        }
        var members: [UInt64: [OutputNode]] = [:]
        for (id, entry) in leaked {
            // A current inner whose flatMap is not leaked lives as long as the flatMap: no leak.
            if entry.node.innerOf != 0, leaked[entry.node.innerOf] == nil, replay.output(id: entry.node.innerOf) != nil {
                continue
            }
            members[root(of: id), default: []].append(entry.node)
        }

        var subscriptionsByRoot: [UInt64: [SubscriptionNode]] = [:]
        var rootOfOutput: [UInt64: UInt64] = [:]
        for (rootID, nodes) in members { for node in nodes { rootOfOutput[node.id] = rootID } }
        var leakedSubscriptions: [SubscriptionNode] = []
        for subscription in replay.subscriptionTable.values where subscription.inFocus && !subscription.isInternal {
            if let rootID = rootOfOutput[subscription.output] {
                subscriptionsByRoot[rootID, default: []].append(subscription)
                continue
            }
            // A dangling Binder, or one of a duplicate binding, is reported as such.
            guard subscription.danglingDeliveries == 0, subscription.bindingGroup?.isReported != true,
                reason(subscription.scope, preexisting: subscription.isPreexisting) != nil
            else { continue }
            leakedSubscriptions.append(subscription)
        }

        var findings: [Finding] = []
        if replay.options.kinds.contains(.leakedOutput) {
            findings += mergedBySite(
                members.compactMap { rootID, nodes in
                    guard let root = leaked[rootID] else { return nil }
                    return outputFinding(
                        root: root.node, reason: root.reason,
                        others: nodes.filter { $0 !== root.node }.sorted { $0.id < $1.id },
                        subscriptions: (subscriptionsByRoot[rootID] ?? []).sorted { $0.id < $1.id })
                })
        }
        if replay.options.kinds.contains(.leakedSubscription) {
            findings += mergedBySite(
                leakedSubscriptions.sorted { $0.id < $1.id }.map { subscription in
                    subscriptionFinding(
                        subscription, reason: reason(subscription.scope, preexisting: subscription.isPreexisting)!)
                })
        }
        return findings
    }

    private func outputFinding(
        root: OutputNode, reason: Reason, others: [OutputNode], subscriptions: [SubscriptionNode]
    ) -> Finding {
        var message: String
        var related: [Finding.Related] = []
        let when: String
        switch reason {
        case .scope(let scope):
            when = "created in scope '\(scope.name)' and still alive after it ended"
        case .exit:
            when = "still alive at exit"
        }
        let longLived = root.incoming.filter { $0.role != .pastInner }.compactMap { replay.output(id: $0.source) }
        if longLived.isEmpty {
            message = "\(root.displayName) is \(when)"
            if !subscriptions.isEmpty, case .scope = reason {
                message += ": something keeps it alive, often a closure bound to it that captures it or its owner"
            }
        } else {
            let names = longLived.map(\.displayName).joined(separator: ", ")
            // An unlabelled derived Output's name already says its kind ("map #37 (String)").
            let name = root.label == nil ? root.displayName : "\(root.kind) \(root.displayName)"
            message = "\(name) is \(when): \(names) outlives it and keeps it alive"
            for source in longLived {
                related.append(Finding.Related(site: source.site, note: "\(source.displayName) is created here and keeps it alive"))
            }
        }
        for other in others {
            related.append(Finding.Related(site: other.site, note: "\(other.displayName) is also alive, derived from it"))
        }
        for subscription in subscriptions {
            related.append(
                Finding.Related(site: subscription.site, note: "still bound to \(subscription.outputNode?.displayName ?? "it") here"))
        }
        if case .scope(let scope) = reason, let site = scope.site {
            related.append(Finding.Related(site: site, note: "scope '\(scope.name)' begins here"))
        }
        let event: UInt64 = if case .scope(let scope) = reason { scope.endedAt ?? 0 } else { replay.lastSequence }
        return Finding(
            kind: .leakedOutput, message: message, site: root.site, related: related,
            outputs: [root.id] + others.map(\.id), subscriptions: subscriptions.map(\.id), event: event)
    }

    private func subscriptionFinding(_ subscription: SubscriptionNode, reason: Reason) -> Finding {
        let outputName = subscription.outputNode?.displayName ?? "Output #\(subscription.output)"
        let what = subscription.target.map { "Binder to \($0.type)" } ?? "closure"
        var related: [Finding.Related] = []
        if let output = subscription.outputNode {
            related.append(Finding.Related(site: output.site, note: "\(outputName) is created here and lives on"))
        }
        let message: String
        let event: UInt64
        switch reason {
        case .scope(let scope):
            message = "\(what) bound to \(outputName) in scope '\(scope.name)' is still bound after the scope ended"
            if let site = scope.site { related.append(Finding.Related(site: site, note: "scope '\(scope.name)' begins here")) }
            event = scope.endedAt ?? 0
        case .exit:
            message = "\(what) bound to \(outputName) is still bound at exit"
            event = replay.lastSequence
        }
        return Finding(
            kind: .leakedSubscription, message: message, site: subscription.site, related: related,
            outputs: [subscription.output], subscriptions: [subscription.id], event: event)
    }

    /// One finding per site and kind: the first, with the count of the others.
    private func mergedBySite(_ findings: [Finding]) -> [Finding] {
        var bySite: [SourceSite?: (finding: Finding, count: Int)] = [:]
        var order: [SourceSite?] = []
        for finding in findings.sorted(by: {
            ($0.event, $0.outputs.first ?? 0, $0.subscriptions.first ?? 0)
                < ($1.event, $1.outputs.first ?? 0, $1.subscriptions.first ?? 0)
        }) {
            if var existing = bySite[finding.site] {
                existing.count += 1
                existing.finding.outputs += finding.outputs
                existing.finding.subscriptions += finding.subscriptions
                bySite[finding.site] = existing
            } else {
                bySite[finding.site] = (finding, 1)
                order.append(finding.site)
            }
        }
        return order.map { site in
            var (finding, count) = bySite[site]!
            if count > 1 { finding.message += " (\(count) times from this line)" }
            return finding
        }
    }
}
