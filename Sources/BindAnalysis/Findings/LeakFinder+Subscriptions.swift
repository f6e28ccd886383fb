@_spi(Harness) import BindTraceModel

/// `leaked-subscription` findings, late leaks, and merging findings of one line (see ``LeakFinder``).
extension LeakFinder {
    func subscriptionFinding(_ subscription: SubscriptionNode, reason: Reason) -> Finding {
        let outputName = subscription.outputName
        let what = Narrator.what(target: subscription.target)
        var related: [Finding.Related] = []
        if let output = subscription.outputNode {
            related.append(output.createdHere(" and lives on"))
        }
        var message: String
        switch reason {
        case .scope(let scope):
            message = "\(what) bound to \(outputName) in scope '\(scope.name)' is still bound after the scope ended"
            related += scopeNote(reason)
        case .exit:
            message = "\(what) bound to \(outputName) is still bound at exit"
        }
        if replay.recordsHandles {
            message += ", and nothing can unbind it: " + handleLoss(subscription)
        }
        if let mark = subscription.updatesAtAbandon, let output = subscription.outputNode, output.updateCount > mark {
            message += "; it received \(Narrator.count(output.updateCount - mark, "update")) since"
        }
        message += ": keep the Subscription (or add it to a SubscriptionContainer emptied with its owner)"
        return Finding(
            kind: .leakedSubscription, message: message, site: subscription.site, related: related,
            outputs: [subscription.output], subscriptions: [subscription.id], event: event(reason))
    }

    func lateFinding(_ subscription: SubscriptionNode, deliveries: UInt64, duration: UInt64) -> Finding {
        let scope = subscription.scope?.endedScope
        let outputName = subscription.outputName
        let what = Narrator.what(target: subscription.target)
        var message = "\(what) bound to \(outputName)"
        if let scope { message += " in scope '\(scope.name)'" }
        message +=
            " outlived its scope by \(Narrator.duration(nanoseconds: duration)) and "
            + "\(Narrator.count(deliveries, "update")) (nothing could unbind it: \(handleLoss(subscription))), "
            + "until \(outputName) was released: keep the Subscription and unbind it when its owner goes away"
        var related: [Finding.Related] = []
        if let output = subscription.outputNode {
            related.append(output.createdHere())
        }
        if let scope, let site = scope.site {
            related.append(Finding.Related(site: site, note: "scope '\(scope.name)' begins here"))
        }
        return Finding(
            kind: .leakedSubscription, message: message, site: subscription.site, related: related,
            outputs: [subscription.output], subscriptions: [subscription.id], event: subscription.unboundAt ?? 0)
    }

    /// A Binder binding of a target whose bindings from this line go with their Output, each replaced
    /// by the next (a cell replacing the row view model it owns, the old one taking its binding
    /// along): an ended one that a later one replaced, or the current one after such a replacement.
    func isReplacedWithItsOutput(_ subscription: SubscriptionNode) -> Bool {
        guard let target = subscription.targetKey else { return false }
        let key = BindingGroup.Key(target: target, site: subscription.siteKey)
        guard let releases = replay.releasedWithOutput[key] else { return false }
        if let ended = subscription.unboundAt { return releases.last > ended || latestLiveBind[key] ?? 0 > ended }
        return releases.first < subscription.boundAt
    }

    /// How the binding lost the handle that could unbind it: dropped, or held by a container that was
    /// released (releasing a `SubscriptionContainer` does not unbind, as in the published Bind).
    func handleLoss(_ subscription: SubscriptionNode) -> String {
        guard subscription.container != 0, let count = replay.releasedContainers[subscription.container] else {
            return "its Subscription was released"
        }
        return "its container's owner (the cell, the screen) was released with "
            + "\(Narrator.count(UInt64(count), "subscription")) still bound; empty the container in `deinit`"
    }

    /// One finding per site and kind: the first, with the count of the times it happened. Each
    /// subscription is a time; Outputs count once per event they are judged at (`perEvent`: the scope's
    /// end), so two Outputs one line leaves per screen (a combine and a flatMap) count once per screen.
    func mergedBySite(_ findings: [Finding], perEvent: Bool = false) -> [Finding] {
        var bySite: [SourceSite?: (finding: Finding, events: Set<UInt64>)] = [:]
        var order: [SourceSite?] = []
        for (index, finding) in findings.sorted(by: {
            ($0.event, $0.outputs.first ?? 0, $0.subscriptions.first ?? 0)
                < ($1.event, $1.outputs.first ?? 0, $1.subscriptions.first ?? 0)
        }).enumerated() {
            let time = perEvent ? finding.event : UInt64(index)
            if var existing = bySite[finding.site] {
                existing.events.insert(time)
                existing.finding.outputs += finding.outputs
                existing.finding.subscriptions += finding.subscriptions
                bySite[finding.site] = existing
            } else {
                bySite[finding.site] = (finding, [time])
                order.append(finding.site)
            }
        }
        return order.map { site in
            var (finding, events) = bySite[site]!
            if events.count > 1 { finding.message += " (\(events.count) times from this line)" }
            return finding
        }
    }
}
