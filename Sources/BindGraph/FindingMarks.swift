import BindAnalysis
import BindTraceModel

/// Which findings touch which Outputs and subscriptions.
struct FindingMarks: Sendable {
    var outputs: [UInt64: Set<Finding.Kind>] = [:]
    var subscriptions: [UInt64: Set<Finding.Kind>] = [:]
    private var outputMessages: [UInt64: [String]] = [:]
    private var subscriptionMessages: [UInt64: [String]] = [:]

    init(_ findings: [Finding]) {
        for finding in findings {
            let text = "\(finding.kind.rawValue): \(finding.message)"
            for id in finding.outputs {
                outputs[id, default: []].insert(finding.kind)
                if outputMessages[id, default: []].count < 3 { outputMessages[id, default: []].append(text) }
            }
            for id in finding.subscriptions {
                subscriptions[id, default: []].insert(finding.kind)
                if subscriptionMessages[id, default: []].count < 3 {
                    subscriptionMessages[id, default: []].append(text)
                }
            }
        }
    }

    func outputKinds(_ ids: [UInt64]) -> Set<Finding.Kind> {
        ids.reduce(into: Set<Finding.Kind>()) { $0.formUnion(outputs[$1] ?? []) }
    }

    func subscriptionKinds(_ ids: [UInt64]) -> Set<Finding.Kind> {
        ids.reduce(into: Set<Finding.Kind>()) { $0.formUnion(subscriptions[$1] ?? []) }
    }

    func messages(outputs ids: [UInt64]) -> String { Self.joined(ids.compactMap { outputMessages[$0] }) }
    func messages(subscriptions ids: [UInt64]) -> String { Self.joined(ids.compactMap { subscriptionMessages[$0] }) }

    private static func joined(_ lists: [[String]]) -> String {
        var seen: Set<String> = []
        let unique = lists.joined().filter { seen.insert($0).inserted }.prefix(3)
        return unique.isEmpty ? "" : "\n" + unique.joined(separator: "\n")
    }
}
