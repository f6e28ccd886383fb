import BindTraceModel

/// Finds `structural-cycle`: derived Outputs that depend on each other in a circle.
///
/// Operators create their result fresh, so only a flatMap switching to an inner Output downstream
/// of itself can close a circle; the check runs once per new edge, from its derived end.
struct StructuralCycleFinder {
    private(set) var findings: [Finding] = []
    private var seen: Set<[SourceSite]> = []
    /// A circle longer than this is not looked for (keeps one edge's check bounded).
    private static let searchLimit = 100_000

    mutating func check(_ edge: EdgeState, replay: Replay, sequence: UInt64) {
        // Most new edges end at an Output nothing is derived from yet: no circle, and no search to set up.
        // (Looked up unretained: the table holds it.)
        let isDerivedFrom =
            replay.outputTable.reference(edge.derived)?._withUnsafeGuaranteedRef { derived in
                derived.outgoing.contains { $0.role != .pastInner }
            } ?? false
        guard isDerivedFrom else { return }
        // Depth-first from `derived` along live edges; a path back to `source` closes a circle.
        var parent: [UInt64: UInt64] = [edge.derived: edge.derived]
        var pending = [edge.derived]
        var found = false
        while let current = pending.popLast(), !found, parent.count < Self.searchLimit {
            guard let node = replay.output(id: current) else { continue }
            for next in node.outgoing where next.role != .pastInner && parent[next.derived] == nil {
                parent[next.derived] = current
                if next.derived == edge.source {
                    found = true
                    break
                }
                pending.append(next.derived)
            }
        }
        guard found else { return }
        var path = [edge.source]
        var current = edge.source
        while current != edge.derived, let previous = parent[current] {
            path.append(previous)
            current = previous
        }
        path.reverse()  // derived … source
        let nodes = path.compactMap { replay.output(id: $0) }
        guard nodes.contains(where: \.inFocus) else { return }
        let sites = nodes.map(\.site)
        guard seen.insert(sites.sorted()).inserted else { return }
        let derivedNode = replay.output(id: edge.derived)
        let names = nodes.map(\.narrated)
        let circle = Narrator.path(names + names.prefix(1))
        findings.append(
            Finding(
                kind: .structuralCycle, message: "derived Outputs depend on each other in a circle: \(circle)",
                site: derivedNode?.site,
                related: nodes.dropFirst().map {
                    $0.createdHere()
                },
                outputs: path, event: sequence))
    }
}
