import BindTraceModel

/// The Binder bindings of one Output to one target from one site.
final class BindingGroup {
    struct Key: Hashable {
        let output: UInt64
        let target: BinderTarget
        let site: SourceSite
    }

    let key: Key
    var members: [SubscriptionNode] = []
    /// The members at the moment there were most of them.
    var peak: [SubscriptionNode] = []
    var peakSequence: UInt64 = 0
    var isCandidate = false

    init(key: Key) { self.key = key }

    /// A duplicate-binding finding covers it.
    var isReported: Bool { isCandidate && confirmedPeak.count >= 2 }

    /// The peak without the bindings whose target died while another member's target lived:
    /// those had a different target at a reused address, not the same one twice.
    var confirmedPeak: [SubscriptionNode] {
        peak.filter { member in
            let died = member.firstDanglingUpdate
            guard died != 0 else { return true }
            return !peak.contains { other in
                other !== member && other.boundAt < died && (other.unboundAt ?? .max) > died
                    && (other.firstDanglingUpdate == 0 || other.firstDanglingUpdate > died)
            }
        }
    }
}

/// Finds `duplicate-binding`: one Output bound several times at once to the same Binder target from
/// the same site (a reused cell that never unsubscribed).
///
/// A target's identity is its address, which a new object may reuse after the old one is gone. A
/// binding whose target is seen gone (a dangling delivery) leaves its group at once, and one seen
/// gone later while another member of its group still delivers fine had a different target: neither
/// counts. (The recorder writes a dangling record for the old binding when a new target is bound at
/// a dead one's address.)
struct DuplicateBindingFinder {
    private var groups: [BindingGroup.Key: BindingGroup] = [:]
    private var candidates: [BindingGroup] = []

    mutating func bound(_ node: SubscriptionNode, sequence: UInt64) {
        guard let target = node.target else { return }
        let key = BindingGroup.Key(output: node.output, target: target, site: node.site)
        let group: BindingGroup
        if let existing = groups[key] {
            group = existing
        } else {
            group = BindingGroup(key: key)
            groups[key] = group
        }
        group.members.append(node)
        node.bindingGroup = group
        if group.members.count > group.peak.count {
            group.peak = group.members
            group.peakSequence = sequence
            if group.members.count >= 2 && !group.isCandidate {
                group.isCandidate = true
                candidates.append(group)
            }
        }
    }

    mutating func unbound(_ node: SubscriptionNode) {
        guard let group = node.bindingGroup else { return }
        group.members.removeAll { $0 === node }
        node.bindingGroup = nil
        if group.members.isEmpty { groups[group.key] = nil }
    }

    func findings() -> [Finding] {
        struct Site: Hashable {
            let site: SourceSite
            let targetType: String
            let outputSite: SourceSite?
        }
        var bySite: [Site: (count: Int, instances: Int, group: BindingGroup, sample: SubscriptionNode)] = [:]
        for group in candidates {
            let peak = group.confirmedPeak
            guard peak.count >= 2, peak.contains(where: \.inFocus) else { continue }
            let first = peak[0]
            let key = Site(site: group.key.site, targetType: group.key.target.type, outputSite: first.outputNode?.site)
            if var existing = bySite[key] {
                existing.instances += 1
                if peak.count > existing.count {
                    existing.count = peak.count
                    existing.group = group
                }
                bySite[key] = existing
            } else {
                bySite[key] = (peak.count, 1, group, first)
            }
        }
        return bySite.map { key, value in
            let outputName = value.sample.outputNode?.displayName ?? "Output #\(value.sample.output)"
            var message =
                "\(outputName) is bound \(value.count) times at once to the same \(key.targetType) from this line: "
                + "a reused cell that never unsubscribed?"
            if value.instances > 1 { message += " (\(value.instances) targets)" }
            var related: [Finding.Related] = []
            if let outputSite = key.outputSite {
                related.append(Finding.Related(site: outputSite, note: "\(outputName) is created here"))
            }
            let peak = value.group.confirmedPeak
            return Finding(
                kind: .duplicateBinding, message: message, site: key.site, related: related,
                outputs: [value.sample.output], subscriptions: peak.map(\.id), event: value.group.peakSequence)
        }
    }
}
