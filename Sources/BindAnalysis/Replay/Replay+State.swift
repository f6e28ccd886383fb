import BindTraceModel

// The graph as it is now, for queries between events.

extension Replay {
    /// The Output `id` as it is now (released ones only with ``AnalysisOptions/keepsReleasedOutputs``).
    public func outputState(_ id: UInt64) -> OutputState? {
        (outputTable[id] ?? keptReleased[id])?.state
    }

    /// The subscription `id`, while it is bound.
    public func subscriptionState(_ id: UInt64) -> SubscriptionState? {
        subscriptionTable[id]?.state
    }

    /// How many Outputs are alive now.
    public var liveOutputCount: Int { outputTable.count }
    /// How many subscriptions are bound now.
    public var boundSubscriptionCount: Int { subscriptionTable.count }

    /// The whole graph as it is now.
    /// - Complexity: O(*n* log *n*) in what is alive.
    public func snapshot() -> GraphState {
        var outputs = outputTable.values.map(\.state)
        outputs += keptReleased.values.map(\.state)
        outputs.sort { $0.id < $1.id }
        var edges: [EdgeState] = []
        for node in outputTable.values { edges += node.outgoing }
        for node in keptReleased.values { edges += node.outgoing }
        edges.sort { ($0.source, $0.derived, $0.role.rawValue) < ($1.source, $1.derived, $1.role.rawValue) }
        var scopes = [UInt64: ScopeNode](uniqueKeysWithValues: scopeTable.entries.map { ($0.id, $0.node) })
        for node in outputTable.values { node.scope.map { addScope($0, to: &scopes) } }
        for node in subscriptionTable.values { node.scope.map { addScope($0, to: &scopes) } }
        return GraphState(
            sequence: lastSequence, outputs: outputs,
            subscriptions: subscriptionTable.values.map(\.state).sorted { $0.id < $1.id }, edges: edges,
            scopes: scopes.values.map(\.state).sorted { $0.id < $1.id })
    }

    func addScope(_ scope: ScopeNode, to scopes: inout [UInt64: ScopeNode]) {
        var current: ScopeNode? = scope
        while let node = current, scopes[node.id] == nil {
            scopes[node.id] = node
            current = node.parent
        }
    }
}
