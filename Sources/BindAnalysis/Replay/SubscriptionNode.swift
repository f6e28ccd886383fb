@_spi(Harness) import BindTraceModel

/// A bound subscription inside the replay.
///
/// Recycled: the replay keeps nodes that nothing refers to any more and binds the next subscription
/// with one of them (``Replay/recycle(_:)``, ``rebind(_:outputNode:scope:boundAt:inFocus:)``), which saves
/// an allocation and a deallocation per bind. Only a node no one else holds is recycled, so no finding,
/// group or list ever sees one change. Its fields are therefore variables, set only in this file.
final class SubscriptionNode {
    @exclusivity(unchecked) private(set) var id: UInt64 = 0
    @exclusivity(unchecked) private(set) var output: UInt64 = 0
    /// Its Output and scope, each holding one retain taken in ``rebind(_:output:scope:boundAt:inFocus:)``
    /// and given back in ``clear()`` or `deinit`: strong references whose cost is exactly that (a
    /// stored strong property also costs copies around every access). The hot paths use them unretained.
    @exclusivity(unchecked) private(set) var outputReference: Unmanaged<OutputNode>?
    @exclusivity(unchecked) private(set) var scopeReference: Unmanaged<ScopeNode>?
    /// `nil` when the trace bound it to an Output it never created.
    var outputNode: OutputNode? { outputReference?.takeUnretainedValue() }
    @exclusivity(unchecked) private(set) var siteKey = SiteKey(file: 0, line: 0)
    @exclusivity(unchecked) private(set) var isInternal = false
    @exclusivity(unchecked) private(set) var targetKey: TargetKey?
    /// As ``OutputNode/symbols``.
    unowned(unsafe) let symbols: SymbolTable
    var site: SourceSite { symbols.site(siteKey) }
    var target: BinderTarget? { targetKey.map(symbols.target) }
    var scope: ScopeNode? { scopeReference?.takeUnretainedValue() }
    @exclusivity(unchecked) private(set) var isPreexisting = false
    @exclusivity(unchecked) private(set) var boundAt: UInt64 = 0
    @exclusivity(unchecked) private(set) var inFocus = false
    @exclusivity(unchecked) var danglingDeliveries: UInt64 = 0
    @exclusivity(unchecked) var firstDangling: UInt64 = 0
    /// The update that first delivered to it with its target gone (0: none).
    @exclusivity(unchecked) var firstDanglingUpdate: UInt64 = 0
    @exclusivity(unchecked) var unboundAt: UInt64?
    /// The group of Binder bindings it counts in, for duplicate detection. Not retained (the group
    /// holds its members): set only while it is a member, and a group with members is kept by its
    /// finder. Neither weak (a side table per group) nor strong (a cycle). Kept as `Unmanaged`:
    /// even testing an `unowned(unsafe)` reference for `nil` retains and releases it.
    var bindingGroup: BindingGroup? {
        get { bindingGroupReference?.takeUnretainedValue() }
        set { bindingGroupReference = newValue.map { Unmanaged.passUnretained($0) } }
    }
    @exclusivity(unchecked) private(set) var bindingGroupReference: Unmanaged<BindingGroup>?
    /// The newer binding of the same target from the same site that superseded it, while both were bound.
    @exclusivity(unchecked) var supersededBy: SubscriptionNode?
    /// The first update of its Output that reached it after it was superseded (0: none yet).
    @exclusivity(unchecked) var supersededDelivery: UInt64 = 0
    /// The `SubscriptionContainer` holding it (0: none recorded).
    @exclusivity(unchecked) var container: UInt64 = 0
    /// As ``bindingGroup``, for container groups.
    var containerGroup: ContainerGroup? {
        get { containerGroupReference?.takeUnretainedValue() }
        set { containerGroupReference = newValue.map { Unmanaged.passUnretained($0) } }
    }
    @exclusivity(unchecked) private(set) var containerGroupReference: Unmanaged<ContainerGroup>?
    /// When its `Subscription` handle was released while it was still bound: nothing can unbind it now.
    @exclusivity(unchecked) var handleReleasedAt: UInt64?
    /// Its Output's update count and the time when it became a leak candidate: its scope ended
    /// (and, when the trace records handles, its handle was released).
    @exclusivity(unchecked) var updatesAtAbandon: UInt64?
    @exclusivity(unchecked) var timeAtAbandon: UInt64 = 0
    /// What its closure (an operator's: its transform) captures, when the trace recorded it (format
    /// 1.4): the facts that tell a closure keeping its owner alive from one that does not.
    @exclusivity(unchecked) var captures: [TraceEvent.Capture]?
    /// Its scope was not recorded (bound on a thread that ran none) but taken from the facts: the
    /// scope of the Output it binds, or of the Outputs its closure's captures hold.
    @exclusivity(unchecked) private(set) var scopeIsInferred = false

    init(
        _ binding: BindingRecord, symbols: SymbolTable, output: Unmanaged<OutputNode>?, scope: Unmanaged<ScopeNode>?,
        boundAt: UInt64, inFocus: Bool
    ) {
        self.symbols = symbols
        rebind(binding, output: output, scope: scope, boundAt: boundAt, inFocus: inFocus)
    }

    deinit { clear() }

    /// Makes this node the new subscription of `binding`, as if it had just been made: every field
    /// is set, and `output` and `scope` are retained. Only for a new node or a cleared one no one else holds.
    @inline(__always)
    func rebind(
        _ binding: BindingRecord, output outputReference: Unmanaged<OutputNode>?,
        scope scopeReference: Unmanaged<ScopeNode>?, boundAt: UInt64, inFocus: Bool
    ) {
        id = binding.subscription
        output = binding.output
        self.outputReference = outputReference?.retain()
        siteKey = binding.site
        isInternal = binding.isInternal
        targetKey = binding.target
        self.scopeReference = scopeReference?.retain()
        isPreexisting = binding.preexisting
        self.boundAt = boundAt
        self.inFocus = inFocus
        danglingDeliveries = 0
        firstDangling = 0
        firstDanglingUpdate = 0
        unboundAt = nil
        bindingGroupReference = nil
        if supersededBy != nil { supersededBy = nil }
        supersededDelivery = 0
        container = 0
        containerGroupReference = nil
        handleReleasedAt = nil
        updatesAtAbandon = nil
        timeAtAbandon = 0
        captures = nil
        scopeIsInferred = false
    }

    /// Gives an unscoped binding the scope the facts tie it to (see ``scopeIsInferred``).
    func adoptScope(_ scope: Unmanaged<ScopeNode>, inFocus: Bool) {
        scopeReference?.release()
        scopeReference = scope.retain()
        scopeIsInferred = true
        self.inFocus = inFocus
    }

    /// Hands its reference to its Output over to the caller (before ``clear()``), or `nil`.
    func takeOutputNode() -> OutputNode? {
        defer { outputReference = nil }
        return outputReference?.takeRetainedValue()
    }

    /// Lets go of what it refers to (before it waits to be recycled: a waiting node keeps no Output,
    /// scope or other subscription alive).
    @inline(__always)
    func clear() {
        outputReference?.release()
        outputReference = nil
        scopeReference?.release()
        scopeReference = nil
        if supersededBy != nil { supersededBy = nil }
        bindingGroupReference = nil
        containerGroupReference = nil
    }

    var state: SubscriptionState {
        SubscriptionState(
            id: id, output: output, site: site, isInternal: isInternal, target: target, scope: scope?.id ?? 0,
            isPreexisting: isPreexisting, boundAt: boundAt, danglingDeliveries: danglingDeliveries,
            container: container, captures: captures)
    }
}

extension SubscriptionNode {
    /// Bound to an Output its own scope made and nobody else's work used: the binding and its Output
    /// are owned together (a cell's binding to the row view model it made), and go together.
    var diesWithItsOutput: Bool {
        guard let output = outputNode, let scope, output.scope === scope else { return false }
        return !output.usedOutsideScope && !output.hasOuterSource
    }
}
