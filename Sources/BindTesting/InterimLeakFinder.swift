import BindAnalysis
import BindTraceModel

/// A small stand-in for BindAnalysis's leak detection, judging only what a capture's scope did.
///
/// Reports, for what was bound or created inside the scope (or its child scopes):
/// - leaked-subscription: bound by user code, still bound when the capture ended, while its
///   Output was still alive;
/// - duplicate-binding: the same Output bound to the same Binder target from the same line twice
///   at once (whether or not they are unbound later);
/// - leaked-output: created inside the scope and never released.
///
/// Duplicates are judged as they happen (two live bindings at once), the rest at the end.
///
/// - Note: Interim. To be replaced by BindAnalysis (see ``LeakCheck/findings(in:)``).
struct InterimLeakFinder {
    let events: [TraceEvent]
    let scope: UInt64

    func findings() -> [Finding] {
        var scopes: Set<UInt64> = [scope]
        var scopeNames: [UInt64: String] = [:]
        var outputs: [UInt64: TraceEvent.OutputCreation] = [:]
        var labels: [UInt64: String] = [:]
        var released: Set<UInt64> = []
        var bound: [UInt64: (binding: TraceEvent.Binding, sequence: UInt64)] = [:]
        var createdInScope: [(creation: TraceEvent.OutputCreation, sequence: UInt64)] = []
        // Live bindings with a Binder target, by Output, target and line: two at once are a duplicate.
        var live: [String: Set<UInt64>] = [:]
        var keyOf: [UInt64: String] = [:]
        var duplicateGroups: [String: DuplicateGroup] = [:]

        for event in events {
            switch event.kind {
            case .scopeBegan(let id, let parent, let name, _):
                scopeNames[id] = name
                if scopes.contains(parent) { scopes.insert(id) }
            case .outputCreated(let creation):
                outputs[creation.output] = creation
                if let label = creation.label { labels[creation.output] = label }
                if !creation.preexisting && scopes.contains(creation.scope) {
                    createdInScope.append((creation, event.sequence))
                }
            case .labeled(let output, let label):
                labels[output] = label
            case .bound(let binding):
                if !binding.isInternal && !binding.preexisting && scopes.contains(binding.scope) {
                    bound[binding.subscription] = (binding, event.sequence)
                    if let target = binding.target {
                        let key = "\(binding.output)|\(target.identity)|\(binding.site)"
                        keyOf[binding.subscription] = key
                        live[key, default: []].insert(binding.subscription)
                        if let current = live[key], current.count > 1 {
                            var group = duplicateGroups[key] ?? DuplicateGroup(binding: binding, firstSequence: event.sequence)
                            group.subscriptions.formUnion(current)
                            group.maximum = max(group.maximum, current.count)
                            duplicateGroups[key] = group
                        }
                    }
                }
            case .unbound(let subscription, _, _):
                bound[subscription] = nil
                if let key = keyOf.removeValue(forKey: subscription) { live[key]?.remove(subscription) }
            case .released(let output):
                released.insert(output)
                for (subscription, entry) in bound where entry.binding.output == output {
                    if let key = keyOf.removeValue(forKey: subscription) { live[key]?.remove(subscription) }
                }
            default:
                break
            }
        }

        let scopeName = scopeNames[scope] ?? "capture"
        func describe(_ output: UInt64) -> String {
            let type = outputs[output]?.valueType ?? "?"
            if let label = labels[output] { return "'\(label)' (\(type))" }
            let kind = outputs[output]?.kind.description ?? "output"
            return "\(kind) #\(output) (\(type))"
        }

        var findings: [Finding] = []
        // Duplicates were found as they happened (see below); each group is reported once.
        var duplicates: Set<UInt64> = []
        for group in duplicateGroups.values.sorted(by: { $0.firstSequence < $1.firstSequence }) {
            let binding = group.binding
            duplicates.formUnion(group.subscriptions)
            let outputCreation = outputs[binding.output]
            findings.append(
                Finding(
                    kind: .duplicateBinding,
                    message: "\(describe(binding.output)) is bound \(group.maximum) times at once to the same "
                        + "\(binding.target?.type ?? "target") from this line",
                    site: binding.site,
                    related: outputCreation.map { [Finding.Related(site: $0.site, note: "the Output is created here")] } ?? [],
                    outputs: [binding.output], subscriptions: group.subscriptions.sorted(), event: group.firstSequence))
        }
        let leaked = bound.values.filter { !released.contains($0.binding.output) }.sorted { $0.sequence < $1.sequence }
        for entry in leaked where !duplicates.contains(entry.binding.subscription) {
            let binding = entry.binding
            let outputCreation = outputs[binding.output]
            findings.append(
                Finding(
                    kind: .leakedSubscription,
                    message: "subscription to \(describe(binding.output)) is still bound after scope '\(scopeName)'",
                    site: binding.site,
                    related: outputCreation.map { [Finding.Related(site: $0.site, note: "the Output is created here")] } ?? [],
                    outputs: [binding.output], subscriptions: [binding.subscription], event: entry.sequence))
        }
        for entry in createdInScope where !released.contains(entry.creation.output) {
            findings.append(
                Finding(
                    kind: .leakedOutput,
                    message: "\(describe(entry.creation.output)) created in scope '\(scopeName)' is still alive after it",
                    site: entry.creation.site, outputs: [entry.creation.output], event: entry.sequence))
        }
        return findings.sorted { $0.event < $1.event }
    }
}

/// Bindings of one Output to one target from one line that were live at the same time.
private struct DuplicateGroup {
    var binding: TraceEvent.Binding
    var firstSequence: UInt64
    var subscriptions: Set<UInt64> = []
    var maximum = 0
}
