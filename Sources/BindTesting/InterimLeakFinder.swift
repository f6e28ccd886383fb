import BindAnalysis
import BindTraceModel

/// A small stand-in for BindAnalysis's leak detection, judging only what a capture's scope did.
///
/// Reports, for what was bound or created inside the scope (or its child scopes):
/// - leaked-subscription: bound by user code, still bound when the capture ended, while its
///   Output was still alive;
/// - duplicate-binding: several of those bound to the same Output and the same Binder target from
///   the same line;
/// - leaked-output: created inside the scope and never released.
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
                }
            case .unbound(let subscription, _, _):
                bound[subscription] = nil
            case .released(let output):
                released.insert(output)
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
        let leaked = bound.values.filter { !released.contains($0.binding.output) }.sorted { $0.sequence < $1.sequence }
        // Group by Output, target and line: more than one is a duplicate binding.
        var groups: [String: [(binding: TraceEvent.Binding, sequence: UInt64)]] = [:]
        for entry in leaked {
            guard let target = entry.binding.target else { continue }
            groups["\(entry.binding.output)|\(target.identity)|\(entry.binding.site)", default: []].append(entry)
        }
        var duplicates: Set<UInt64> = []
        for entry in leaked {
            guard let target = entry.binding.target else { continue }
            let group = groups["\(entry.binding.output)|\(target.identity)|\(entry.binding.site)"] ?? []
            guard group.count > 1, group[0].binding.subscription == entry.binding.subscription else { continue }
            duplicates.formUnion(group.map(\.binding.subscription))
            let binding = entry.binding
            let outputCreation = outputs[binding.output]
            findings.append(
                Finding(
                    kind: .duplicateBinding,
                    message: "\(describe(binding.output)) is bound \(group.count) times to the same "
                        + "\(target.type) from this line",
                    site: binding.site,
                    related: outputCreation.map { [Finding.Related(site: $0.site, note: "the Output is created here")] } ?? [],
                    outputs: [binding.output], subscriptions: group.map(\.binding.subscription),
                    event: group.last?.sequence ?? entry.sequence))
        }
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
