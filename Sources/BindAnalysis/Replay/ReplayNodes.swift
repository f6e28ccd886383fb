@_spi(Harness) import BindTraceModel

/// A bind as the replay applies it, from a batch or a ``TraceEvent``: its strings as symbols.
struct BindingRecord {
    let subscription: UInt64
    let output: UInt64
    let site: SiteKey
    let isInternal: Bool
    let target: TargetKey?
    let scope: UInt64
    let preexisting: Bool
    let cause: TraceCause?

    @inline(__always)
    init(_ binding: CompactBinding, symbols: SymbolTable) {
        subscription = binding.subscription
        output = binding.output
        site = SiteKey(
            file: symbols.symbol(ofTraceString: binding.file), line: UInt(truncatingIfNeeded: binding.line))
        isInternal = binding.isInternal
        target = binding.target.map {
            TargetKey(type: symbols.symbol(ofTraceString: $0.type), identity: $0.identity)
        }
        scope = binding.scope
        preexisting = binding.preexisting
        cause = binding.cause
    }

    init(_ binding: TraceEvent.Binding, symbols: SymbolTable) {
        subscription = binding.subscription
        output = binding.output
        site = SiteKey(file: symbols.intern(binding.site.file), line: binding.site.line)
        isInternal = binding.isInternal
        target = binding.target.map { TargetKey(type: symbols.intern($0.type), identity: $0.identity) }
        scope = binding.scope
        preexisting = binding.preexisting
        cause = binding.cause
    }
}

/// An Output's creation as the replay applies it: its strings as symbols (the rare label as text).
struct CreationRecord {
    let output: UInt64
    let kind: OutputKind
    let valueType: UInt32
    let site: SiteKey
    let label: String?
    let scope: UInt64
    let preexisting: Bool
    let cause: TraceCause?

    @inline(__always)
    init(_ creation: CompactCreation, symbols: SymbolTable) {
        output = creation.output
        kind = creation.kind
        valueType = symbols.symbol(ofTraceString: creation.valueType)
        site = SiteKey(
            file: symbols.symbol(ofTraceString: creation.file), line: UInt(truncatingIfNeeded: creation.line))
        label = creation.label == 0 ? nil : symbols[symbols.symbol(ofTraceString: creation.label)]
        scope = creation.scope
        preexisting = creation.preexisting
        cause = creation.cause
    }

    init(_ creation: TraceEvent.OutputCreation, symbols: SymbolTable) {
        output = creation.output
        kind = creation.kind
        valueType = symbols.intern(creation.valueType)
        site = SiteKey(file: symbols.intern(creation.site.file), line: creation.site.line)
        label = creation.label
        scope = creation.scope
        preexisting = creation.preexisting
        cause = creation.cause
    }
}

/// A live Output inside the replay. A class, so the hot path mutates it in place after one lookup.
///
/// Its state is not checked for exclusive access at run time (here and in ``SubscriptionNode``):
/// the replay is single-threaded and never re-enters itself, and the checks cost more than the
/// bookkeeping of a bind or release.
///
/// Recycled like ``SubscriptionNode``: a released node no one else holds serves the next creation
/// (``recreate(_:scope:createdAt:inFocus:)``), so its identity fields are variables, set only in this file.
final class OutputNode {
    @exclusivity(unchecked) private(set) var id: UInt64 = 0
    @exclusivity(unchecked) private(set) var kind = OutputKind.output
    @exclusivity(unchecked) private(set) var valueTypeSymbol: UInt32 = 0
    @exclusivity(unchecked) private(set) var siteKey = SiteKey(file: 0, line: 0)
    /// The replay's table, which outlives every node (nodes never leave their replay): not
    /// retained, so making and freeing a node costs no reference counting for it.
    unowned(unsafe) let symbols: SymbolTable
    var valueType: String { symbols[valueTypeSymbol] }
    var site: SourceSite { symbols.site(siteKey) }
    @exclusivity(unchecked) var label: String?
    @exclusivity(unchecked) private(set) var scope: ScopeNode?
    @exclusivity(unchecked) private(set) var isPreexisting = false
    @exclusivity(unchecked) private(set) var createdAt: UInt64 = 0
    /// Judged by the analysis (inside the focus scope, or no focus set).
    @exclusivity(unchecked) private(set) var inFocus = false
    @exclusivity(unchecked) var updateCount: UInt64 = 0
    @exclusivity(unchecked) var lastPreview: String?
    /// The time of its latest update or fire (0: none).
    @exclusivity(unchecked) var lastUpdateTime: UInt64 = 0
    /// Bindings to it that a newer binding of their target superseded and that are still bound:
    /// a cheap test on the update path before looking for the evidence of a reused target.
    @exclusivity(unchecked) var supersededBindings = 0
    /// A user subscription bound from outside its scope, after its scope ended: it is shared,
    /// long-lived by design, not that scope's leak.
    @exclusivity(unchecked) var usedOutsideScope = false
    /// The first bind of a user's closure or Binder to it (0: none yet): Outputs derived from it
    /// before then were made with it (``LeakFinder``'s "made together").
    @exclusivity(unchecked) var firstUserBindAt: UInt64 = 0
    @exclusivity(unchecked) var releasedAt: UInt64?
    /// Subscriptions bound to it now.
    @exclusivity(unchecked) var boundCount = 0
    /// Update and fire frames of this Output open on any thread: a cheap test before a stack scan.
    @exclusivity(unchecked) var openFrames = 0
    /// Frames (update, fire or bind) that refer to it, on any thread; see ``Replay/releasedWithOpenFrames``.
    @exclusivity(unchecked) var frameReferences = 0
    /// Edges into it (its sources) and out of it (what is derived from it).
    @exclusivity(unchecked) var incoming: [EdgeState] = []
    @exclusivity(unchecked) var outgoing: [EdgeState] = []
    /// The flatMap whose current inner Output this is (0: none).
    @exclusivity(unchecked) var innerOf: UInt64 = 0
    /// Derived from an Output its own scope did not make (an outer scope's, the app's): that source
    /// holds it as long as the source lives.
    @exclusivity(unchecked) var hasOuterSource = false
    /// Released long after its scope ended, kept by its outer source (``Replay/lateOutputLeaks``).
    @exclusivity(unchecked) var outlivedItsScope = false

    /// - Parameter scope: retained by the caller for the node, which takes the retain over.
    init(
        _ creation: CreationRecord, symbols: SymbolTable, scope: Unmanaged<ScopeNode>?, createdAt: UInt64,
        inFocus: Bool
    ) {
        self.symbols = symbols
        recreate(creation, scope: scope, createdAt: createdAt, inFocus: inFocus)
    }

    /// Makes this node the Output `creation` makes, as if it had just been made: every field is set
    /// (the edge lists keep their storage). Only for a new node or a cleared one no one else holds.
    /// - Parameter scope: as in `init`.
    @inline(__always)
    func recreate(_ creation: CreationRecord, scope: Unmanaged<ScopeNode>?, createdAt: UInt64, inFocus: Bool) {
        id = creation.output
        kind = creation.kind
        valueTypeSymbol = creation.valueType
        siteKey = creation.site
        if label != nil || creation.label != nil { label = creation.label }
        if let scope { self.scope = scope.takeRetainedValue() }
        isPreexisting = creation.preexisting
        self.createdAt = createdAt
        self.inFocus = inFocus
        updateCount = 0
        if lastPreview != nil { lastPreview = nil }
        lastUpdateTime = 0
        supersededBindings = 0
        usedOutsideScope = false
        firstUserBindAt = 0
        releasedAt = nil
        boundCount = 0
        openFrames = 0
        frameReferences = 0
        removeEdges()
        innerOf = 0
        hasOuterSource = false
        outlivedItsScope = false
    }

    /// Empties its edge lists, keeping their storage. (Popping a handful of edges costs a tenth of
    /// `removeAll(keepingCapacity:)`.)
    @inline(__always)
    func removeEdges() {
        while incoming.popLast() != nil {}
        while outgoing.popLast() != nil {}
    }

    /// Lets go of what it refers to before it waits to be recycled: a waiting node keeps no scope
    /// or text alive (its edge lists' storage, empty, stays for the next use).
    func clear() {
        if scope != nil { scope = nil }
        if label != nil { label = nil }
        if lastPreview != nil { lastPreview = nil }
        removeEdges()
    }

    var state: OutputState {
        OutputState(
            id: id, kind: kind, valueType: valueType, site: site, label: label, scope: scope?.id ?? 0,
            isPreexisting: isPreexisting, createdAt: createdAt, updateCount: updateCount,
            lastPreview: lastPreview, isReleased: releasedAt != nil, releasedAt: releasedAt)
    }
}

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
    /// Whether the trace shows it begin (not a placeholder for one begun before the recording).
    var isCounted = false
    /// The thread it began on.
    var thread: UInt32 = 0
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
        // A cell's scope binds a few: one allocation instead of three as the array grows.
        if subscriptions.capacity == 0 { subscriptions.reserveCapacity(4) }
        boundSubscriptions += 1
        if subscriptions.count >= 32 && subscriptions.count > 2 * boundSubscriptions {
            subscriptions.removeAll { $0.unboundAt != nil }
        }
        subscriptions.append(subscription)
    }

    /// Whether this scope or one of its ancestors has ended: ``endedScope`` `!= nil`, walking the
    /// parents without retaining them (a bind asks it).
    var hasEnded: Bool {
        var scope = Unmanaged.passUnretained(self)
        while true {
            let (ended, parent) = scope._withUnsafeGuaranteedRef { scope in
                (scope.endedAt != nil, scope.parent.map { Unmanaged.passUnretained($0) })
            }
            if ended { return true }
            guard let parent else { return false }
            scope = parent
        }
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

/// A derived Output that outlived its scope, held by an outer source, and was released before the
/// trace ended (``Replay/lateOutputLeaks``).
struct LateOutputLeak {
    let node: OutputNode
    let scope: ScopeNode
    /// Events between the scope's end and the release.
    let events: UInt64
    /// Nanoseconds between the scope's end and the release.
    let duration: UInt64
    /// The release's sequence number.
    let releasedAt: UInt64
}

extension SubscriptionNode {
    /// Bound to an Output its own scope made and nobody else's work used: the binding and its Output
    /// are owned together (a cell's binding to the row view model it made), and go together.
    var diesWithItsOutput: Bool {
        guard let output = outputNode, let scope, output.scope === scope else { return false }
        return !output.usedOutsideScope && !output.hasOuterSource
    }
}
