@_spi(Harness) import BindAnalysis
@_spi(Harness) import BindTraceModel

/// The subscriptions of each Output, grouped into the subscriber nodes drawn.
extension TraceGraphBuilder {
    func subscriberGroups(_ state: GraphState, marks: FindingMarks) -> [UInt64: [SubscriberGroup]] {
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
}
