import BindTraceModel

/// A live Output inside the replay. A class, so the hot path mutates it in place after one lookup.
final class OutputNode {
    let id: UInt64
    let kind: OutputKind
    let valueType: String
    let site: SourceSite
    var label: String?
    let scope: ScopeNode?
    let isPreexisting: Bool
    let createdAt: UInt64
    /// Judged by the analysis (inside the focus scope, or no focus set).
    let inFocus: Bool
    @exclusivity(unchecked) var updateCount: UInt64 = 0
    @exclusivity(unchecked) var lastPreview: String?
    /// The time of its latest update or fire (0: none).
    @exclusivity(unchecked) var lastUpdateTime: UInt64 = 0
    /// Bindings to it that a newer binding of their target superseded and that are still bound:
    /// a cheap test on the update path before looking for the evidence of a reused target.
    @exclusivity(unchecked) var supersededBindings = 0
    /// A user subscription bound from outside its scope, after its scope ended: it is shared,
    /// long-lived by design, not that scope's leak.
    var usedOutsideScope = false
    var releasedAt: UInt64?
    /// Subscriptions bound to it now.
    @exclusivity(unchecked) var boundCount = 0
    /// Update and fire frames of this Output open on any thread: a cheap test before a stack scan.
    @exclusivity(unchecked) var openFrames = 0
    /// Frames (update, fire or bind) that refer to it, on any thread; see ``Replay/releasedWithOpenFrames``.
    @exclusivity(unchecked) var frameReferences = 0
    /// Edges into it (its sources) and out of it (what is derived from it).
    var incoming: [EdgeState] = []
    var outgoing: [EdgeState] = []
    /// The flatMap whose current inner Output this is (0: none).
    var innerOf: UInt64 = 0

    init(
        _ creation: TraceEvent.OutputCreation, scope: ScopeNode?, createdAt: UInt64, inFocus: Bool
    ) {
        id = creation.output
        kind = creation.kind
        valueType = creation.valueType
        site = creation.site
        label = creation.label
        self.scope = scope
        isPreexisting = creation.preexisting
        self.createdAt = createdAt
        self.inFocus = inFocus
    }

    var state: OutputState {
        OutputState(
            id: id, kind: kind, valueType: valueType, site: site, label: label, scope: scope?.id ?? 0,
            isPreexisting: isPreexisting, createdAt: createdAt, updateCount: updateCount,
            lastPreview: lastPreview, isReleased: releasedAt != nil, releasedAt: releasedAt)
    }
}

/// A bound subscription inside the replay.
final class SubscriptionNode {
    let id: UInt64
    let output: UInt64
    /// `nil` when the trace bound it to an Output it never created.
    let outputNode: OutputNode?
    let site: SourceSite
    let isInternal: Bool
    let target: BinderTarget?
    let scope: ScopeNode?
    let isPreexisting: Bool
    let boundAt: UInt64
    let inFocus: Bool
    var danglingDeliveries: UInt64 = 0
    var firstDangling: UInt64 = 0
    /// The update that first delivered to it with its target gone (0: none).
    var firstDanglingUpdate: UInt64 = 0
    var unboundAt: UInt64?
    /// The group of Binder bindings it counts in, for duplicate detection.
    /// Weak: the group holds its members, and the finder holds the groups.
    weak var bindingGroup: BindingGroup?
    /// The newer binding of the same target from the same site that superseded it, while both were bound.
    var supersededBy: SubscriptionNode?
    /// The first update of its Output that reached it after it was superseded (0: none yet).
    var supersededDelivery: UInt64 = 0
    /// The `SubscriptionContainer` holding it (0: none recorded).
    var container: UInt64 = 0
    weak var containerGroup: ContainerGroup?
    /// When its `Subscription` handle was released while it was still bound: nothing can unbind it now.
    var handleReleasedAt: UInt64?
    /// Its Output's update count and the time when it became a leak candidate: its scope ended
    /// (and, when the trace records handles, its handle was released).
    var updatesAtAbandon: UInt64?
    var timeAtAbandon: UInt64 = 0

    init(
        _ binding: TraceEvent.Binding, outputNode: OutputNode?, scope: ScopeNode?, boundAt: UInt64,
        inFocus: Bool
    ) {
        id = binding.subscription
        output = binding.output
        self.outputNode = outputNode
        site = binding.site
        isInternal = binding.isInternal
        target = binding.target
        self.scope = scope
        isPreexisting = binding.preexisting
        self.boundAt = boundAt
        self.inFocus = inFocus
    }

    var state: SubscriptionState {
        SubscriptionState(
            id: id, output: output, site: site, isInternal: isInternal, target: target, scope: scope?.id ?? 0,
            isPreexisting: isPreexisting, boundAt: boundAt, danglingDeliveries: danglingDeliveries)
    }
}

/// A scope. Outputs and subscriptions hold their scope, and a scope its parent, so an ended scope
/// lives exactly as long as something that belongs to it.
final class ScopeNode {
    let id: UInt64
    let parent: ScopeNode?
    let name: String
    let site: SourceSite?
    let beganAt: UInt64
    var endedAt: UInt64?
    /// The time the scope ended (0 while open).
    var endTime: UInt64 = 0
    let inFocus: Bool
    // Unchecked: the replay is single-threaded and never re-enters a scope's bookkeeping; the
    // dynamic checks cost a bind more than the append.
    /// User subscriptions bound directly in this scope (some may be unbound since; compacted).
    @exclusivity(unchecked) var subscriptions: [SubscriptionNode] = []
    @exclusivity(unchecked) var boundSubscriptions = 0

    init(id: UInt64, parent: ScopeNode?, name: String, site: SourceSite?, beganAt: UInt64, inFocus: Bool) {
        self.id = id
        self.parent = parent
        self.name = name
        self.site = site
        self.beganAt = beganAt
        self.inFocus = inFocus
    }

    /// Whether `other` is this scope or nested in it.
    func contains(_ other: ScopeNode?) -> Bool {
        var scope = other
        while let current = scope {
            if current === self { return true }
            scope = current.parent
        }
        return false
    }

    /// Notes a user subscription bound in this scope.
    func add(_ subscription: SubscriptionNode) {
        boundSubscriptions += 1
        if subscriptions.count >= 32 && subscriptions.count > 2 * boundSubscriptions {
            subscriptions.removeAll { $0.unboundAt != nil }
        }
        subscriptions.append(subscription)
    }

    /// The innermost ended scope among this one and its ancestors.
    var endedScope: ScopeNode? {
        var scope: ScopeNode? = self
        while let current = scope {
            if current.endedAt != nil { return current }
            scope = current.parent
        }
        return nil
    }

    var state: ScopeState {
        ScopeState(id: id, parent: parent?.id ?? 0, name: name, site: site, beganAt: beganAt, endedAt: endedAt)
    }
}

/// What runs on a thread: an update, fire or bind whose delivery may cause further events.
///
/// A plain value: it does not retain its Output (see ``output``), so pushing and popping frames
/// costs no reference counting.
struct Frame {
    enum Kind { case update, bind }
    let sequence: UInt64
    let kind: Kind
    /// The Output updated or bound to (`nil` when the trace never created it). Not retained: the
    /// replay keeps it alive while a frame refers to it (``OutputNode/frameReferences``).
    let outputReference: Unmanaged<OutputNode>?
    let outputID: UInt64
    /// The subscription whose closure made this event (0: top level).
    let causeSubscription: UInt64
    /// For a bind frame: the subscription that receives the initial value.
    let boundSubscription: UInt64

    init(
        sequence: UInt64, kind: Kind, output: OutputNode?, outputID: UInt64, causeSubscription: UInt64,
        boundSubscription: UInt64
    ) {
        self.init(
            sequence: sequence, kind: kind, outputReference: output.map { Unmanaged.passUnretained($0) },
            outputID: outputID, causeSubscription: causeSubscription, boundSubscription: boundSubscription)
    }

    init(
        sequence: UInt64, kind: Kind, outputReference: Unmanaged<OutputNode>?, outputID: UInt64,
        causeSubscription: UInt64, boundSubscription: UInt64
    ) {
        self.sequence = sequence
        self.kind = kind
        self.outputReference = outputReference
        self.outputID = outputID
        self.causeSubscription = causeSubscription
        self.boundSubscription = boundSubscription
    }

    /// The Output updated or bound to (`nil` when the trace never created it).
    var output: OutputNode? { outputReference?.takeUnretainedValue() }
}
