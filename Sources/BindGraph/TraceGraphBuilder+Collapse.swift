@_spi(Harness) import BindAnalysis
import BindTraceModel

/// Which Outputs share a node: each alone, or repeated identical structures as one "×N" node.
///
/// Two Outputs are identical when they have the same kind, value type, creation line, label,
/// released flag, finding kinds and subscriber groups (Binder type or closure line), and their
/// neighbours are identical in the same way along edges of the same operator and role. That is
/// colour refinement (Weisfeiler–Lehman) over a few rounds: five list cells each with a title
/// Output, a map from it and a Label binder collapse into three nodes, whatever the list's length.
/// Outputs on a cycle finding never collapse, so every loop is drawn exactly.
struct OutputGrouping: Sendable {
    struct Group: Sendable {
        /// Output ids, ascending.
        var members: [UInt64]
        var nodeID: String
    }

    /// In order of their first member's id.
    private(set) var groups: [Group] = []
    /// The node drawing each Output.
    private(set) var nodeID: [UInt64: String] = [:]

    var nodeCount: Int { groups.count }

    /// Keeps at most `maximum` groups: those `isImportant` (findings) first, then the others in order;
    /// returns the Outputs of the groups left out.
    mutating func limit(to maximum: Int, isImportant: (Group) -> Bool) -> Int {
        guard groups.count > maximum else { return 0 }
        let important = groups.indices.filter { isImportant(groups[$0]) }
        var kept = Set(important.prefix(maximum))
        for index in groups.indices where kept.count < maximum { kept.insert(index) }
        var omittedOutputs = 0
        var remaining: [Group] = []
        remaining.reserveCapacity(maximum)
        for (index, group) in groups.enumerated() {
            if kept.contains(index) {
                remaining.append(group)
            } else {
                omittedOutputs += group.members.count
                for member in group.members { nodeID[member] = nil }
            }
        }
        groups = remaining
        return omittedOutputs
    }

    /// Rounds of refinement: how far away a difference still keeps two Outputs apart.
    static let rounds = 4

    init(
        state: GraphState, marks: FindingMarks, subscribers: [UInt64: [SubscriberGroup]], minimumGroup: Int?
    ) {
        let outputs = state.outputs
        guard let minimumGroup, outputs.count >= minimumGroup else {
            for output in outputs { add([output.id], collapsed: false) }
            return
        }

        // Round 0: what an Output is on its own.
        var names: [String: Int] = [:]
        func number(_ key: String) -> Int {
            if let existing = names[key] { return existing }
            names[key] = names.count
            return names.count - 1
        }
        var colour: [UInt64: Int] = [:]
        colour.reserveCapacity(outputs.count)
        for output in outputs {
            let kinds = (marks.outputs[output.id] ?? []).sorted().map(\.rawValue).joined(separator: ",")
            let onCycle =
                marks.outputs[output.id].map { $0.contains(.feedbackCycle) || $0.contains(.structuralCycle) } ?? false
            let subscriberShape = Set(
                (subscribers[output.id] ?? []).map {
                    "\($0.key.targetType ?? "closure")@\($0.key.site)/\($0.key.isDangling)/\($0.key.findings)"
                }
            ).sorted().joined(separator: ";")
            var key = "\(output.kind.rawValue)|\(output.valueType)|\(output.site)|\(output.label ?? "\u{0}")"
            key += "|\(output.isReleased)|\(output.isPreexisting)|\(kinds)|\(subscriberShape)"
            if onCycle { key += "|#\(output.id)" }
            colour[output.id] = number(key)
        }

        var incoming: [UInt64: [EdgeState]] = [:]
        var outgoing: [UInt64: [EdgeState]] = [:]
        for edge in state.edges {
            incoming[edge.derived, default: []].append(edge)
            outgoing[edge.source, default: []].append(edge)
        }
        // Later rounds: add the (set of) neighbours' colours along each kind of edge.
        for _ in 0..<Self.rounds {
            names.removeAll(keepingCapacity: true)
            var next: [UInt64: Int] = [:]
            next.reserveCapacity(outputs.count)
            for output in outputs {
                let ins = Set(
                    (incoming[output.id] ?? []).map {
                        "\($0.role.rawValue)\($0.operation.rawValue):\(colour[$0.source] ?? -1)"
                    })
                let outs = Set(
                    (outgoing[output.id] ?? []).map {
                        "\($0.role.rawValue)\($0.operation.rawValue):\(colour[$0.derived] ?? -1)"
                    })
                next[output.id] = number(
                    "\(colour[output.id]!)<\(ins.sorted().joined(separator: ","))>\(outs.sorted().joined(separator: ","))"
                )
            }
            colour = next
        }

        var members: [Int: [UInt64]] = [:]
        for output in outputs { members[colour[output.id]!, default: []].append(output.id) }
        for output in outputs {
            guard let group = members[colour[output.id]!], group.first == output.id else { continue }
            if group.count >= minimumGroup {
                add(group, collapsed: true)
            } else {
                for id in group { add([id], collapsed: false) }
            }
        }
        groups.sort { $0.members[0] < $1.members[0] }
    }

    private mutating func add(_ members: [UInt64], collapsed: Bool) {
        let id = collapsed ? "g\(members[0])" : "o\(members[0])"
        for member in members { nodeID[member] = id }
        groups.append(Group(members: members, nodeID: id))
    }
}
