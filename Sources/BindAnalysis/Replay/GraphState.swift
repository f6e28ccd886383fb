@_spi(Harness) import BindTraceModel

/// The binding graph as it was at one moment of a trace: what a graph renderer draws.
///
/// Every array is sorted by id, so two snapshots of the same moment are equal and print the same.
/// Ids are the trace's own: Output ids, subscription ids and scope ids never repeat within a process.
///
/// ```swift
/// let result = try TraceAnalyzer.analyze(path: "app.trace")
/// for edge in result.state.edges { print(edge.source, "→", edge.derived, edge.operation) }
/// ```
@_spi(Harness) public struct GraphState: Hashable, Sendable {
    /// The state is the one after this event (0: before the first event).
    public var sequence: UInt64
    /// Live Outputs; released ones too when ``AnalysisOptions/keepsReleasedOutputs`` is set.
    public var outputs: [OutputState]
    /// Subscriptions bound at this moment.
    public var subscriptions: [SubscriptionState]
    /// Operator edges and flatMap inner edges between the Outputs in ``outputs``.
    public var edges: [EdgeState]
    /// Scopes still open, and ended scopes that something alive still belongs to.
    public var scopes: [ScopeState]

    @_spi(Harness) public init(
        sequence: UInt64 = 0, outputs: [OutputState] = [], subscriptions: [SubscriptionState] = [],
        edges: [EdgeState] = [], scopes: [ScopeState] = []
    ) {
        self.sequence = sequence
        self.outputs = outputs
        self.subscriptions = subscriptions
        self.edges = edges
        self.scopes = scopes
    }

    /// The Output with trace id `id`, if it is in this state.
    /// - Complexity: O(log *n*) (binary search; ``outputs`` is sorted by id).
    public func output(_ id: UInt64) -> OutputState? {
        var low = 0
        var high = outputs.count
        while low < high {
            let middle = (low + high) / 2
            if outputs[middle].id == id { return outputs[middle] }
            if outputs[middle].id < id { low = middle + 1 } else { high = middle }
        }
        return nil
    }
}

/// One Output as the replay knows it.
@_spi(Harness) public struct OutputState: Hashable, Sendable {
    public var id: UInt64
    /// What made it: `output`, `relay`, or the operator (`map`, `combine`, …).
    public var kind: OutputKind
    /// The Swift type of its values, as recorded: `String`, `(Int, String)`.
    public var valueType: String
    /// Where it was created; for a derived Output, the operator call.
    public var site: SourceSite
    public var label: String?
    /// The innermost scope it was created in (0: none).
    public var scope: UInt64
    /// It existed before the recording started (its creation site is known, its past is not).
    public var isPreexisting: Bool
    /// The sequence number of its creation (or first announcement).
    public var createdAt: UInt64
    /// Updates and fires of this Output so far.
    public var updateCount: UInt64
    /// The latest value preview (recorded only with `BIND_TRACE_VALUES=1`).
    public var lastPreview: String?
    public var isReleased: Bool
    /// The sequence number of its release, when ``isReleased``.
    public var releasedAt: UInt64?

    /// `'title' (String)`, `Relay<Int> at Model.swift:4` or `map → Int at Feed.swift:12`: the
    /// Output's name in findings and replays (``Narrator``).
    package var displayName: String { Narrator.name(of: self) }
}

/// One bound subscription.
@_spi(Harness) public struct SubscriptionState: Hashable, Sendable {
    public var id: UInt64
    /// The Output it is bound to.
    public var output: UInt64
    /// The bind call; for an operator's own subscription, the operator call.
    public var site: SourceSite
    /// Bound by one of Bind's operators, not by the user.
    public var isInternal: Bool
    /// The Binder's target, for a `bind(to: Binder)`.
    public var target: BinderTarget?
    public var scope: UInt64
    public var isPreexisting: Bool
    public var boundAt: UInt64
    /// Deliveries that found the Binder's target gone.
    public var danglingDeliveries: UInt64
    /// The `SubscriptionContainer` (trace id) its `Subscription` was added to; 0 when the trace
    /// records none (not added, or a trace without handle records).
    public var container: UInt64 = 0
    /// What its closure (an operator's: its transform) captures, when the trace recorded it.
    public var captures: [TraceEvent.Capture]? = nil
}

/// An edge of the graph: values flow from `source` into `derived`.
@_spi(Harness) public struct EdgeState: Hashable, Sendable {
    /// What an edge stands for.
    public enum Role: String, Hashable, Sendable {
        /// `derived` was made from `source` by an operator (`operation`).
        case `operator`
        /// `source` is the inner Output a flatMap (`derived`) forwards now.
        case currentInner = "current-inner"
        /// `source` was a flatMap's inner Output and was switched away from; it is still alive.
        case pastInner = "past-inner"
    }

    public var source: UInt64
    public var derived: UInt64
    /// The operator of `derived` (`flatMap` for inner edges).
    public var operation: OutputKind
    public var role: Role
}

/// A `BindTrace.scope` (or a capture).
@_spi(Harness) public struct ScopeState: Hashable, Sendable {
    public var id: UInt64
    /// The enclosing scope (0: none, or one that began before the recording).
    public var parent: UInt64
    public var name: String
    /// The `BindTrace.scope` call; `nil` for a scope that began before the recording.
    public var site: SourceSite?
    public var beganAt: UInt64
    /// The sequence number of its end, once it ended.
    public var endedAt: UInt64?
}
