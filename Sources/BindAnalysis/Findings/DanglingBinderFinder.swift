import BindTraceModel

/// Finds `dangling-binder`: a Binder whose target is gone, still bound and still delivered to.
///
/// One finding per bind site (and Output creation site), however many subscriptions or deliveries.
struct DanglingBinderFinder {
    private struct Key: Hashable {
        let site: SourceSite
        let outputSite: SourceSite?
    }

    private struct Record {
        var subscriptions: [UInt64] = []
        var deliveries: UInt64 = 0
        var firstSequence: UInt64 = 0
        var outputName = ""
        var output: UInt64 = 0
        var targetType = ""
    }

    private var records: [Key: Record] = [:]

    mutating func delivered(_ node: SubscriptionNode, sequence: UInt64) {
        guard node.inFocus else { return }
        let key = Key(site: node.site, outputSite: node.outputNode?.site)
        var record = records[key] ?? Record()
        if record.firstSequence == 0 {
            record.firstSequence = sequence
            record.outputName = node.outputNode?.narrated ?? Narrator.unknownOutput(node.output)
            record.output = node.output
            record.targetType = node.target.map { Narrator.name(of: $0) } ?? "target"
        }
        if node.danglingDeliveries == 1 && record.subscriptions.count < 100 { record.subscriptions.append(node.id) }
        record.deliveries &+= 1
        records[key] = record
    }

    /// Takes back the last delivery counted for `node` (``delivered(_:sequence:)`` was called for it):
    /// it was the recorder's note that a new target took its target's address.
    mutating func takeBack(_ node: SubscriptionNode) {
        guard node.inFocus else { return }
        let key = Key(site: node.site, outputSite: node.outputNode?.site)
        guard var record = records[key] else { return }
        record.deliveries -= 1
        if node.danglingDeliveries == 0 { record.subscriptions.removeAll { $0 == node.id } }
        records[key] = record.deliveries == 0 ? nil : record
    }

    func findings() -> [Finding] {
        records.map { key, record in
            let bindings = record.subscriptions.count == 1 ? "a Binder" : "\(record.subscriptions.count) Binders"
            let values = record.deliveries == 1 ? "1 value" : "\(record.deliveries) values"
            var related: [Finding.Related] = []
            if let outputSite = key.outputSite {
                related.append(Finding.Related(site: outputSite, note: "\(record.outputName) is created here"))
            }
            return Finding(
                kind: .danglingBinder,
                message:
                    "\(bindings) to a \(record.targetType) that is gone stayed bound to \(record.outputName) "
                    + "and received \(values) after the target was released: unsubscribe when the target goes away",
                site: key.site, related: related, outputs: [record.output], subscriptions: record.subscriptions,
                event: record.firstSequence)
        }
    }
}
